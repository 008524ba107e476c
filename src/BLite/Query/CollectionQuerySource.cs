using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Query;

/// <summary>
/// The one place the API layer runs an engine-level <see cref="DocumentQuery"/> against a
/// collection. Interim implementation until the plan executor lands: it walks the primary index
/// and applies the filter, sort and paging on raw C-BSON with <see cref="DocumentPipeline"/>
/// (correct results, no index scans); <see cref="Explain"/> already reports the planner's choice.
/// </summary>
internal static class CollectionQuerySource
{
    /// <summary>
    /// Matching documents in query order. Each item is valid until the next is pulled (copy or
    /// decode it first); enumerate while <paramref name="pages"/> is open.
    /// </summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Execute(DocumentCollection collection, IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var fields = collection.Database.Fields;
        var documents = Scan(collection, pages, copy: query.Sort.Count > 0);
        return DocumentPipeline.Run(documents, FilterEvaluator.Create(query.Filter, fields, parameters), query.Sort, fields,
            query.ResolveSkip(parameters), query.ResolveTake(parameters));
    }

    public static long Count(DocumentCollection collection, IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        if (query.Filter is null && query.Skip is null && query.Take is null)
        {
            return collection.Count(pages);
        }

        long count = 0;
        foreach (var _ in Execute(collection, pages, query, parameters))
        {
            count++;
        }

        return count;
    }

    public static string Explain(DocumentCollection collection, IPageReader pages, DocumentQuery query)
    {
        var indexes = new List<IndexDescriptor> { IndexDescriptor.PrimaryKey };
        foreach (var index in collection.GetIndexes(pages))
        {
            var paths = new Core.Query.FieldPath[index.FieldPaths.Count];
            for (var i = 0; i < paths.Length; i++)
            {
                paths[i] = Core.Query.FieldPath.Parse(index.FieldPaths[i]);
            }

            indexes.Add(new IndexDescriptor(index.Name, paths, index.Unique));
        }

        return QueryPlanner.Plan(query, indexes).Explain();
    }

    private static IEnumerable<ReadOnlyMemory<byte>> Scan(DocumentCollection collection, IPageReader pages, bool copy)
    {
        var cursor = collection.Scan(pages);
        while (cursor.MoveNext())
        {
            yield return copy ? cursor.Document.ToArray() : cursor.Document;
        }
    }
}
