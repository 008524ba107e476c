using BLite.Bson;
using BLite.Core.Storage;
using BLite.Core.Vectors;
using BLite.Linq;

namespace BLite;

public sealed partial class BsonDocumentCollection
{
    /// <summary>
    /// Creates an HNSW vector index over the float32 vectors (BSON binary subtype 9) at
    /// <paramref name="fieldPath"/>, built over the existing documents; false when it exists already.
    /// </summary>
    public bool EnsureVectorIndex(string indexName, string fieldPath, int dimensions, VectorMetric metric = VectorMetric.Cosine,
        int m = VectorIndexDefinition.DefaultM, int efConstruction = VectorIndexDefinition.DefaultEfConstruction)
    {
        RefuseOnServer();
        var definition = new VectorIndexDefinition(indexName, fieldPath, dimensions, metric, m, efConstruction);
        return _context.Write((Collection, definition), static (pages, s) => s.Collection.Documents.EnsureVectorIndex(pages, s.definition));
    }

    public bool DropVectorIndex(string indexName)
    {
        ArgumentException.ThrowIfNullOrEmpty(indexName);
        RefuseOnServer();
        return _context.Write((Collection, indexName), static (pages, s) => s.Collection.Documents.DropVectorIndex(pages, s.indexName));
    }

    /// <summary>
    /// The nearest documents to a vector, nearest first, with their distances. The search is JSON
    /// (docs/vector.md): <c>{ "path": "embedding", "vector": [..], "k": 10, "ef": 64, "filter": { "folder": "work" } }</c>.
    /// </summary>
    public IReadOnlyList<VectorMatch<BsonDocument>> NearestTo(string jsonSearch)
    {
        RefuseOnServer();
        var query = VectorSearchJson.Parse(jsonSearch);
        var state = (Collection: this, Query: query);
        return _context.CurrentTransaction is { } transaction
            ? transaction.Run(state, static (pages, s) => s.Collection.Nearest(pages, s.Query))
            : _context.Read(state, static (pages, s) => s.Collection.Nearest(pages, s.Query));
    }

    /// <summary>The plan a JSON vector search would run with: HNSW with its ef, or an exact scan of index candidates.</summary>
    public string ExplainNearest(string jsonSearch)
    {
        RefuseOnServer();
        var query = VectorSearchJson.Parse(jsonSearch);
        return _context.Read((Collection, query), static (pages, s) => VectorSearch.Plan(s.Collection.Documents, pages, s.query).Explain());
    }

    private List<VectorMatch<BsonDocument>> Nearest(IPageReader pages, VectorQuery query)
    {
        var results = VectorSearch.Execute(Collection.Documents, pages, query);
        var matches = new List<VectorMatch<BsonDocument>>(results.Count);
        foreach (var result in results)
        {
            matches.Add(new VectorMatch<BsonDocument>(BsonDocument.FromBytes(result.Document.Span, Fields), result.Distance));
        }

        return matches;
    }
}
