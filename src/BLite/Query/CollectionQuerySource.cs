using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Query;

/// <summary>
/// The one place the API layer runs an engine-level <see cref="DocumentQuery"/> against a
/// collection, through the plan executor (<see cref="PlanExecutor"/>): index selection, key
/// scans, filter re-check on raw C-BSON, sort and paging. Typed collections pass
/// <paramref name="singleValuedPaths"/> from their mapper so indexes over paths that never cross
/// an array are planned as single-valued (two-sided ranges, no de-duplication).
/// </summary>
internal static class CollectionQuerySource
{
    /// <summary>
    /// Matching documents in query order. Each item is valid until the next is pulled (copy or
    /// decode it first); enumerate while <paramref name="pages"/> is open.
    /// </summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Execute(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue> parameters, Func<string, bool>? singleValuedPaths = null) =>
        PlanExecutor.Execute(collection, pages, query, parameters, Plan(collection, pages, query, singleValuedPaths));

    public static long Count(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue> parameters, Func<string, bool>? singleValuedPaths = null) =>
        PlanExecutor.Count(collection, pages, query, parameters, Plan(collection, pages, query, singleValuedPaths));

    public static string Explain(RawCollection collection, IPageReader pages, DocumentQuery query, Func<string, bool>? singleValuedPaths = null) =>
        Plan(collection, pages, query, singleValuedPaths).Explain();

    private static QueryPlan Plan(RawCollection collection, IPageReader pages, DocumentQuery query, Func<string, bool>? singleValuedPaths)
    {
        var indexes = PlanExecutor.DescribeIndexes(collection, pages);
        if (singleValuedPaths is null)
        {
            return QueryPlanner.Plan(query, indexes);
        }

        var described = new IndexDescriptor[indexes.Count];
        for (var i = 0; i < described.Length; i++)
        {
            var index = indexes[i];
            described[i] = index.MultiKey && AllSingleValued(index, singleValuedPaths)
                ? new IndexDescriptor(index.Name, index.Fields, index.Unique, multiKey: false, index.Sparse)
                : index;
        }

        return QueryPlanner.Plan(query, described);
    }

    private static bool AllSingleValued(IndexDescriptor index, Func<string, bool> singleValuedPaths)
    {
        foreach (var field in index.Fields)
        {
            if (!singleValuedPaths(field.Path))
            {
                return false;
            }
        }

        return true;
    }
}
