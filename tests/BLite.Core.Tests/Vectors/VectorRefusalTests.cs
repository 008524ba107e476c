using BLite.Bson;
using BLite.Core.Tests.Collections;
using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

/// <summary>
/// Bad vectors are refused with an error naming the index and the problem, and leave the
/// collection, the graph and the rest of the writing transaction exactly as they were.
/// </summary>
public sealed class VectorRefusalTests
{
    private const int Dimensions = 128;

    [Fact]
    public void Infinite_components_are_refused_and_the_rest_of_the_transaction_commits_unchanged()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 21, Dimensions);
        var vectors = VectorIndexTests.Fill(test, data, 30);
        var notes = test.Collection("notes");
        var good = data.Next();

        using (var write = test.Database.BeginWrite())
        {
            notes.Insert(write, VectorIndexTests.Note(100, good));
            foreach (var bad in new[] { float.PositiveInfinity, float.NegativeInfinity, float.NaN })
            {
                var vector = data.Next();
                vector[40] = bad;
                var insert = Assert.Throws<BLiteVectorException>(() => notes.Insert(write, VectorIndexTests.Note(101, vector)));
                Assert.Contains("component 40", insert.Message, StringComparison.Ordinal);
                Assert.Contains("'byEmbedding'", insert.Message, StringComparison.Ordinal);
                Assert.Throws<BLiteVectorException>(() => notes.Update(write, VectorIndexTests.Note(5, vector)));
            }

            Assert.Null(notes.FindById(write, 101));
            write.Commit();
        }

        Assert.Equal(31, notes.Count());
        Assert.Null(notes.FindById(101));
        using var read = test.Database.BeginRead();
        var raw = test.Database.GetRawCollection("notes");
        Assert.Equal(31, raw.FindVectorIndex(read, "byEmbedding")!.Open().Count(read));
        var unchanged = VectorSearch.Execute(raw, read, new VectorQuery("embedding", vectors[5], 1));
        Assert.Equal(5, BsonDocument.FromBytes(unchanged[0].Document.Span, test.Database.Fields)["_id"].AsInt32);
        Assert.Equal(0f, unchanged[0].Distance);
        var added = VectorSearch.Execute(raw, read, new VectorQuery("embedding", good, 1));
        Assert.Equal(100, BsonDocument.FromBytes(added[0].Document.Span, test.Database.Fields)["_id"].AsInt32);
        Assert.True(test.Database.Verify().IsValid);
    }

    [Fact]
    public void A_zero_vector_is_refused_under_the_cosine_metric_only()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 22, Dimensions);
        VectorIndexTests.Fill(test, data, 10, VectorMetric.Cosine);
        var notes = test.Collection("notes");

        var zero = Assert.Throws<BLiteVectorException>(() => notes.Insert(VectorIndexTests.Note(50, new float[Dimensions])));
        Assert.Contains("non-zero vector", zero.Message, StringComparison.Ordinal);
        Assert.Equal(10, notes.Count());

        using var euclidean = new CollectionsTestDatabase();
        VectorIndexTests.Fill(euclidean, data, 10);
        euclidean.Collection("notes").Insert(VectorIndexTests.Note(50, new float[Dimensions]));
        Assert.Equal(11, euclidean.Collection("notes").Count());
    }

    [Fact]
    public void A_query_vector_of_the_wrong_dimension_or_with_a_non_finite_component_is_refused()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 23, Dimensions);
        VectorIndexTests.Fill(test, data, 10);
        var raw = test.Database.GetRawCollection("notes");
        using var read = test.Database.BeginRead();

        var shortQuery = Assert.Throws<BLiteVectorException>(() => VectorSearch.Execute(raw, read, new VectorQuery("embedding", new float[3], 1)));
        Assert.Contains("The query vector has 3 dimensions", shortQuery.Message, StringComparison.Ordinal);
        var infinite = data.Next();
        infinite[0] = float.PositiveInfinity;
        var notFinite = Assert.Throws<BLiteVectorException>(() => VectorSearch.Execute(raw, read, new VectorQuery("embedding", infinite, 1)));
        Assert.Contains("component 0", notFinite.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Building_an_index_over_a_stored_bad_vector_is_refused_before_anything_is_written()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 24, Dimensions);
        var notes = test.Collection("notes");
        for (var i = 0; i < 50; i++)
        {
            notes.Insert(VectorIndexTests.Note(i, data.Next()));
        }

        var bad = data.Next();
        bad[9] = float.NaN;
        notes.Insert(VectorIndexTests.Note(50, bad));
        var raw = test.Database.GetRawCollection("notes");

        using (var write = test.Database.BeginWrite())
        {
            var refused = Assert.Throws<BLiteVectorException>(() => raw.EnsureVectorIndex(write, VectorIndexTests.Index()));
            Assert.Contains("component 9", refused.Message, StringComparison.Ordinal);
            Assert.Null(raw.FindVectorIndex(write, "byEmbedding"));
            Assert.Equal(51, notes.Count(write));
            write.Commit();
        }

        using var read = test.Database.BeginRead();
        Assert.Null(raw.FindVectorIndex(read, "byEmbedding"));
        Assert.Equal(51, notes.Count(read));
        Assert.True(test.Database.Verify().IsValid);
    }
}
