using BLite.Bson;
using BLite.Tests.Model;

namespace BLite.Tests.Schemaless;

public sealed class BsonDocumentVectorSearchTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public BsonDocumentVectorSearchTests() => _db = new ShopContext(_directory.File());

    public void Dispose()
    {
        Assert.True(_db.Database.Verify().IsValid);
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void A_json_vector_search_returns_the_nearest_matching_documents_with_distances()
    {
        var items = _db.Database.GetCollection("items");
        items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 2, VectorMetric.Cosine);
        items.InsertMany(Enumerable.Range(0, 36).Select(i => new BsonDocument
        {
            ["_id"] = i,
            ["kind"] = i % 2 == 0 ? "even" : "odd",
            ["embedding"] = BsonVector.FromFloat32([(float)Math.Cos(i * Math.PI / 18), (float)Math.Sin(i * Math.PI / 18)]),
        }));

        var nearest = items.NearestTo("""{ "path": "embedding", "vector": [1, 0.18], "k": 3, "filter": { "kind": "odd" } }""");

        Assert.Equal([1, 3, 35], nearest.Select(m => m.Document["_id"].AsInt32));
        Assert.True(nearest[0].Distance < nearest[1].Distance);
        Assert.StartsWith("VECTOR HNSW by_embedding (embedding) Cosine 2d", items.ExplainNearest("""{ "path": "embedding", "vector": [1, 0], "k": 3 }"""), StringComparison.Ordinal);
        var error = Assert.Throws<JsonFilterException>(() => items.NearestTo("""{ "path": "embedding", "vector": [1, 0], "k": 3, "limit": 2 }"""));
        Assert.Contains("'limit'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_vector_index_with_an_unknown_metric_or_bad_parameters_is_refused_and_nothing_is_created()
    {
        var items = _db.Database.GetCollection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["embedding"] = BsonVector.FromFloat32([1f, 0f]) });

        var metric = Assert.Throws<BLiteVectorException>(() => items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 2, (VectorMetric)42));
        Assert.Contains("metric 42", metric.Message, StringComparison.Ordinal);
        Assert.Contains("'by_embedding'", metric.Message, StringComparison.Ordinal);
        Assert.Throws<BLiteVectorException>(() => items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 0));
        Assert.Throws<BLiteVectorException>(() => items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 2, VectorMetric.Cosine, m: 1));
        Assert.Throws<BLiteVectorException>(() => items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 2, VectorMetric.Cosine, m: 16, efConstruction: 8));
        var wrongDimensions = Assert.Throws<BLiteVectorException>(() => items.EnsureVectorIndex("by_embedding", "embedding", dimensions: 3));
        Assert.Contains("2 dimensions", wrongDimensions.Message, StringComparison.Ordinal);

        var missing = Assert.Throws<BLiteException>(() => items.NearestTo("""{ "path": "embedding", "vector": [1, 0], "k": 1 }"""));
        Assert.Contains("no vector index on 'embedding'", missing.Message, StringComparison.Ordinal);
        Assert.Equal(1, items.Count());
    }
}
