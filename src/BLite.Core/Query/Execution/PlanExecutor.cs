using BLite.Core.Diagnostics;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Query;

/// <summary>
/// Runs a <see cref="DocumentQuery"/> against a collection: plans it over the collection's indexes
/// (<see cref="QueryPlanner"/>), walks the chosen key runs, re-checks the filter on raw C-BSON
/// (<see cref="FilterEvaluator"/>: documents that do not match are never deserialized), and sorts
/// with a bounded top-N heap when the query has an order and a take, stopping early when the index
/// order proves nothing later can make the page. Results equal a full scan filtered and stably
/// sorted (ties in primary-key order). See docs/query.md, "Execution".
/// </summary>
/// <remarks>
/// <paramref name="pages"/> is any <see cref="IPageReader"/>: a read snapshot, or the write
/// transaction, whose own writes are then visible. Enumerate while it is open. A yielded
/// document is valid until the next one is pulled when the query has no order (copy it to keep
/// it); sorted results are copies.
/// </remarks>
internal static partial class PlanExecutor
{
    /// <summary>The collection's indexes as the planner sees them, primary key first.</summary>
    /// <remarks>
    /// The catalog does not record whether an index path ever met an array, so secondary indexes
    /// are described as multikey: ranges use one side, scans de-duplicate, and nothing is trusted
    /// beyond what the filter re-check confirms. Callers that know a path is single-valued (typed
    /// models) may pass their own descriptors.
    /// </remarks>
    public static IReadOnlyList<IndexDescriptor> DescribeIndexes(RawCollection collection, IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(collection);
        ArgumentNullException.ThrowIfNull(pages);
        var definitions = collection.GetIndexes(pages);
        var indexes = new List<IndexDescriptor>(definitions.Count + 1) { IndexDescriptor.PrimaryKey };
        foreach (var definition in definitions)
        {
            var paths = new FieldPath[definition.FieldPaths.Count];
            for (var i = 0; i < paths.Length; i++)
            {
                paths[i] = FieldPath.Parse(definition.FieldPaths[i]);
            }

            indexes.Add(new IndexDescriptor(definition.Name, paths, definition.Unique, multiKey: true));
        }

        return indexes;
    }

    /// <summary>The plan for <paramref name="query"/> over the indexes the snapshot sees (or the given ones).</summary>
    public static QueryPlan Plan(RawCollection collection, IPageReader pages, DocumentQuery query, IReadOnlyList<IndexDescriptor>? indexes = null)
    {
        ArgumentNullException.ThrowIfNull(query);
        return QueryPlanner.Plan(query, indexes ?? DescribeIndexes(collection, pages));
    }

    /// <summary>The chosen plan as <see cref="QueryPlan.Explain"/> text.</summary>
    public static string Explain(RawCollection collection, IPageReader pages, DocumentQuery query, IReadOnlyList<IndexDescriptor>? indexes = null) =>
        Plan(collection, pages, query, indexes).Explain();

    /// <summary>
    /// The matching documents' C-BSON bytes, lazily, in query order (index order when the query
    /// has none). <paramref name="plan"/> may be a plan cached for this query shape; it must come
    /// from the same collection's current indexes.
    /// </summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Execute(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue>? parameters = null, QueryPlan? plan = null)
    {
        var execution = Prepare(collection, pages, query, parameters, plan);
        if (execution.Take == 0)
        {
            return [];
        }

        var rows = query.Sort.Count == 0 ? Stream(execution) : Sorted(execution);
        return BLiteTelemetry.ActivitySource.HasListeners() ? QueryActivity.Trace(rows, collection, execution.PlanKind) : rows;
    }

    /// <summary>How many documents <see cref="Execute"/> would return, without materializing any.</summary>
    public static long Count(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue>? parameters = null, QueryPlan? plan = null)
    {
        plan ??= Plan(collection, pages, query);
        var execution = Prepare(collection, pages, query, parameters, plan);
        if (query.Filter is null && query.Skip is null && query.Take is null)
        {
            return collection.Count(pages);
        }

        if (TryCountIndexEntries(collection, pages, plan, parameters, execution.Skip, execution.Take, out var entries))
        {
            return entries;
        }

        var limit = Saturate(execution.Skip, execution.Take);
        long matches = 0;
        var scanner = execution.Scanner;
        while (matches < limit && scanner.MoveNext())
        {
            if (execution.Filter.Matches(scanner.Document.Span))
            {
                matches++;
            }
        }

        return Math.Min(Math.Max(0, matches - execution.Skip), execution.Take);
    }

    /// <summary>Whether <see cref="Execute"/> would return anything; stops at the first match past the skip.</summary>
    public static bool Any(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue>? parameters = null, QueryPlan? plan = null) =>
        Count(collection, pages, query, parameters, plan) > 0;

    private static Execution Prepare(RawCollection collection, IPageReader pages, DocumentQuery query, IReadOnlyList<BsonValue>? parameters, QueryPlan? plan)
    {
        ArgumentNullException.ThrowIfNull(collection);
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(query);
        plan ??= Plan(collection, pages, query);
        if (!ReferenceEquals(plan.Query, query))
        {
            throw new ArgumentException("The plan was made for another query.", nameof(plan));
        }

        var fields = collection.Database.Fields;
        var skip = query.ResolveSkip(parameters);
        var take = query.ResolveTake(parameters);
        var runs = ResolveRuns(plan, parameters, fields, out var scanned, out var exactKeys);
        var filter = FilterEvaluator.Create(exactKeys ? scanned.Residual : query.Filter, fields, parameters);
        var orderComponent = OrderComponent(scanned, query.Sort);
        var descending = orderComponent >= 0 ? query.Sort[0].Descending : scanned.Descending;
        var indexName = scanned.Index is null || scanned.Index.IsPrimaryKey ? null : scanned.Index.Name;
        var scanner = new CandidateScanner(collection, pages, indexName, runs, descending, scanned.NeedsDeduplication || runs.Count > 1,
            primaryKeyOrder: scanned.IsIndexJoin);
        var planKind = scanned.IsFullScan ? "scan" : "index";
        if (BLiteTelemetry.Queries.Enabled)
        {
            BLiteTelemetry.Queries.Add(1, [.. collection.TelemetryTags, new("blite.query.plan", planKind)]);
        }

        return new Execution(query, fields, filter, scanner, skip, take, orderComponent, scanned.NeedsDeduplication, planKind);
    }

    /// <param name="exactKeys">
    /// Whether the runs hold exactly the documents the consumed conditions match (this execution's
    /// values have exact key pieces, see <see cref="HaveExactKeys"/>), so only the plan's residual
    /// needs checking on each document, as counting from the index already relies on.
    /// </param>
    private static IReadOnlyList<ScanRun> ResolveRuns(QueryPlan plan, IReadOnlyList<BsonValue>? parameters, BsonFieldDictionary fields, out QueryPlan scanned,
        out bool exactKeys)
    {
        scanned = plan;
        exactKeys = false;
        if (plan.IsFullScan)
        {
            return [ScanRun.All];
        }

        if (plan.TryResolveRanges(parameters, out var ranges) && ScanRunBuilder.TryBuild(ranges, fields, out var runs))
        {
            exactKeys = HaveExactKeys(ranges);
            return runs;
        }

        scanned = plan.AsFullScan();
        return [ScanRun.All];
    }

    /// <summary>
    /// Which key component carries the first sort key, when the scan walks it in order: the index
    /// field right after the equality-bound ones (or <c>_id</c> on a primary-key scan). -1 when
    /// the index order says nothing about the first sort key.
    /// </summary>
    private static int OrderComponent(QueryPlan plan, IReadOnlyList<SortKey> sort)
    {
        if (sort.Count == 0)
        {
            return -1;
        }

        var first = sort[0].Path;
        if (plan.Index is null)
        {
            return first.Equals(FieldPath.Id) ? 0 : -1;
        }

        var equalities = 0;
        while (equalities < plan.Bounds.Count && plan.Bounds[equalities].Kind == IndexBoundKind.Equal)
        {
            equalities++;
        }

        return equalities < plan.Index.Fields.Count && plan.Index.Fields[equalities].Equals(first) ? equalities : -1;
    }

    private static long Saturate(long skip, long take) => take > long.MaxValue - skip ? long.MaxValue : skip + take;

    private static IEnumerable<ReadOnlyMemory<byte>> Stream(Execution execution)
    {
        var scanner = execution.Scanner;
        long skipped = 0;
        long returned = 0;
        while (scanner.MoveNext())
        {
            var document = scanner.Document;
            if (!execution.Filter.Matches(document.Span))
            {
                continue;
            }

            if (skipped < execution.Skip)
            {
                skipped++;
                continue;
            }

            execution.Scanner.Collection.CountRead(found: true);
            yield return document;
            if (++returned == execution.Take)
            {
                yield break;
            }
        }
    }

    private sealed record Execution(DocumentQuery Query, BsonFieldDictionary Fields, FilterEvaluator Filter, CandidateScanner Scanner,
        long Skip, long Take, int OrderComponent, bool MultiKey, string PlanKind);
}
