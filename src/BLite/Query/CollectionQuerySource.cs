using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Query;

/// <summary>
/// The one place the API layer runs an engine-level <see cref="DocumentQuery"/> against a
/// collection, through the plan executor (<see cref="PlanExecutor"/>): index selection, key
/// scans, filter re-check on raw C-BSON, sort and paging. Typed collections pass their
/// <see cref="QueryPlanCache"/>: plans per query shape, made with the mapper's knowledge of which
/// paths never cross an array (two-sided ranges, no de-duplication on indexes over them).
/// </summary>
internal static class CollectionQuerySource
{
    /// <summary>
    /// Matching documents in query order. Each item is valid until the next is pulled (copy or
    /// decode it first); enumerate while <paramref name="pages"/> is open.
    /// </summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Execute(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue> parameters, QueryPlanCache? plans = null)
    {
        var plan = PlanFor(collection, pages, query, plans);
        return TryPrimaryKeyPoint(plan, parameters, out var key)
            ? ReadPoint(collection, pages, key)
            : PlanExecutor.Execute(collection, pages, query, parameters, plan);
    }

    /// <summary>
    /// As <see cref="Execute"/>, for a reader of <paramref name="values"/> only: when they read
    /// nothing but <c>_id</c> and the plan covers it, each item is a document holding only
    /// <c>_id</c>, taken from the index entries without reading the stored documents.
    /// </summary>
    public static IEnumerable<ReadOnlyMemory<byte>> ExecuteReading(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values, QueryPlanCache? plans = null)
    {
        if (!ReadsOnlyId(values))
        {
            return Execute(collection, pages, query, parameters, plans);
        }

        var plan = PlanFor(collection, pages, query, plans);
        return PlanExecutor.TryExecuteIds(collection, pages, query, parameters, plan)
            ?? (TryPrimaryKeyPoint(plan, parameters, out var key) ? ReadPoint(collection, pages, key) : PlanExecutor.Execute(collection, pages, query, parameters, plan));
    }

    private static bool ReadsOnlyId(IReadOnlyList<ValueExpression> values)
    {
        foreach (var value in values)
        {
            if (value is not FieldValue field || !field.Path.Equals(FieldPath.Id))
            {
                return false;
            }
        }

        return values.Count > 0;
    }

    /// <summary>
    /// An exact <c>_id</c> equality (an ObjectId or string value has one key piece; nothing left to
    /// check, nothing skipped) is one primary-key descent: the scan machinery — filter evaluator,
    /// key runs, cursors — would cost more than the read.
    /// </summary>
    private static bool TryPrimaryKeyPoint(QueryPlan plan, IReadOnlyList<BsonValue> parameters, out byte[] key)
    {
        key = [];
        if (plan.Index is not { IsPrimaryKey: true } || plan.Residual is not null || plan.Query.ResolveSkip(parameters) != 0 || plan.Query.ResolveTake(parameters) == 0
            || !plan.TryResolveRanges(parameters, out var ranges) || ranges.Count != 1 || ranges[0] is not { Lower: null, Upper: null, Prefix: [var id] }
            || id.Type is not (BsonType.ObjectId or BsonType.String))
        {
            return false;
        }

        key = IndexKeys.EncodeId(id);
        return true;
    }

    private static IEnumerable<ReadOnlyMemory<byte>> ReadPoint(RawCollection collection, IPageReader pages, byte[] key)
    {
        if (collection.TryFindById(pages, key, out var document))
        {
            yield return document;
        }
    }

    public static long Count(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue> parameters, QueryPlanCache? plans = null) =>
        PlanExecutor.Count(collection, pages, query, parameters, PlanFor(collection, pages, query, plans));

    public static string Explain(RawCollection collection, IPageReader pages, DocumentQuery query, QueryPlanCache? plans = null) =>
        PlanFor(collection, pages, query, plans).Explain();

    private static QueryPlan PlanFor(RawCollection collection, IPageReader pages, DocumentQuery query, QueryPlanCache? plans) =>
        plans?.Get(collection, pages, query) ?? Plan(collection, pages, query, null);

    internal static QueryPlan Plan(RawCollection collection, IPageReader pages, DocumentQuery query, Func<string, bool>? singleValuedPaths)
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
