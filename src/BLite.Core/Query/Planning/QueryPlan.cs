using System.Text;
using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>How a plan reaches documents, best first (see docs/query.md, "Planner rules").</summary>
internal enum PlanStrategy
{
    /// <summary>Equality on every field of a unique index (or the primary key): at most one document.</summary>
    UniqueEquality,

    /// <summary>Equality on a leading part of an index, optionally followed by a range.</summary>
    Equality,

    /// <summary>A set of values (IN) on a leading index field.</summary>
    In,

    /// <summary>An interval on the leading index field.</summary>
    Range,

    /// <summary>A string prefix on the leading index field.</summary>
    Prefix,

    /// <summary>The whole index in order, to serve an ordering without sorting.</summary>
    Order,

    /// <summary>Every document, in primary-key order.</summary>
    FullScan,
}

/// <summary>
/// The planner's decision for one query shape: which index to scan and within which bounds, in
/// which direction, what is still to be checked on each fetched document (<see cref="Residual"/>)
/// and whether the results still need sorting. Bounds are operands; <see cref="TryResolveRanges"/>
/// turns them into concrete <see cref="IndexValueRange"/>s for one execution's parameter values.
/// </summary>
internal sealed class QueryPlan
{
    internal QueryPlan(DocumentQuery query, PlanStrategy strategy, IndexDescriptor? index, IReadOnlyList<IndexFieldBound> bounds,
        bool descending, QueryFilter? residual, bool needsSort, int score)
    {
        Query = query;
        Strategy = strategy;
        Index = index;
        Bounds = bounds;
        Descending = descending;
        Residual = residual;
        NeedsSort = needsSort;
        Score = score;
        IsIndexJoin = index is { IsPrimaryKey: false } && query.Sort.Count == 0 && bounds.Any(b => b.Kind == IndexBoundKind.In);
    }

    public DocumentQuery Query { get; }

    public PlanStrategy Strategy { get; }

    /// <summary>The index to scan; null for a full scan.</summary>
    public IndexDescriptor? Index { get; }

    public bool IsFullScan => Index is null;

    /// <summary>Equality / IN bounds on leading index fields, then at most one range or prefix.</summary>
    public IReadOnlyList<IndexFieldBound> Bounds { get; }

    /// <summary>Scan the index backwards (serves a descending order).</summary>
    public bool Descending { get; }

    /// <summary>What each fetched document must still satisfy; null when the bounds say it all.</summary>
    public QueryFilter? Residual { get; }

    /// <summary>Whether the results must still be sorted by <see cref="DocumentQuery.Sort"/>.</summary>
    public bool NeedsSort { get; }

    /// <summary>A multikey index can yield one document several times.</summary>
    public bool NeedsDeduplication => Index?.MultiKey == true;

    /// <summary>
    /// Whether a count can walk the secondary index alone: its bounds express the whole filter
    /// (no residual), so every entry in the runs is a match and no document needs reading.
    /// </summary>
    public bool CountsIndexEntries => Index is { IsPrimaryKey: false } && Residual is null && Bounds.Count > 0;

    /// <summary>
    /// Whether a projection of only <c>_id</c> can be answered from the index entries alone (a
    /// covering plan): the entries are exactly the matches (<see cref="CountsIndexEntries"/>) and
    /// no order asks for anything but the order the scan already yields. Every secondary index
    /// entry ends with the document's primary key (docs/query.md, "Covered _id projections").
    /// </summary>
    public bool CoversIds => CountsIndexEntries && Query.Sort.Count == 0 && !Descending;

    /// <summary>
    /// An <c>IN</c> through a secondary index with no order to serve is run as the inner side of a
    /// join: the runs' primary keys are gathered from the index alone, sorted, and the documents
    /// read in <c>_id</c> order (docs/query.md, "Joins through an index").
    /// </summary>
    public bool IsIndexJoin { get; }

    /// <summary>The heuristic score the planner gave this plan (higher is better).</summary>
    public int Score { get; }

    /// <summary>
    /// The key ranges for one execution, in scan order (ascending values, or descending when
    /// <see cref="Descending"/>), without duplicates. Returns false when a parameter value makes
    /// the index unusable (null, an array or a document where a scalar bound is needed): execute
    /// <see cref="AsFullScan"/> instead. An empty list means nothing can match.
    /// </summary>
    public bool TryResolveRanges(IReadOnlyList<BsonValue>? parameters, out IReadOnlyList<IndexValueRange> ranges) =>
        IndexRangeResolver.TryResolve(this, parameters, out ranges);

    /// <summary>The plan to fall back on when <see cref="TryResolveRanges"/> refuses: a full scan with the whole filter.</summary>
    public QueryPlan AsFullScan() =>
        IsFullScan ? this : new QueryPlan(Query, PlanStrategy.FullScan, null, [], false,
            Query.Filter is AndFilter { Filters.Count: 0 } ? null : Query.Filter, Query.Sort.Count > 0, 0);

    /// <summary>
    /// A readable description of the plan, one fact per line:
    /// <code>
    /// IXSCAN idx_status (status) [equality]
    ///   bounds: status = "shipped"
    ///   direction: forward
    ///   residual: { "total": { "$gt": 100 } }
    ///   sort: in memory by placedAt desc
    ///   skip: 0, take: 10
    /// </code>
    /// </summary>
    public string Explain()
    {
        var text = new StringBuilder();
        if (Index is null)
        {
            text.Append("COLLSCAN [full scan]");
        }
        else
        {
            text.Append(Index.IsPrimaryKey ? "PKSCAN " : "IXSCAN ")
                .Append(Index.Name).Append(" (").Append(string.Join(", ", Index.Fields)).Append(')');
            if (Index.Unique && !Index.IsPrimaryKey)
            {
                text.Append(" unique");
            }

            if (Index.MultiKey)
            {
                text.Append(" multikey");
            }

            text.Append(" [").Append(StrategyName(Strategy)).Append(']');
            text.Append("\n  bounds: ").Append(Bounds.Count == 0 ? "all keys" : string.Join("; ", Bounds));
            text.Append("\n  direction: ").Append(Descending ? "backward" : "forward");
            if (NeedsDeduplication)
            {
                text.Append("\n  deduplicate: yes");
            }

            if (IsIndexJoin)
            {
                text.Append("\n  fetch: index join (primary keys gathered, sorted, read in _id order)");
            }
        }

        text.Append("\n  residual: ").Append(Residual?.ToString() ?? "none");
        if (CountsIndexEntries)
        {
            text.Append("\n  count: index entries only");
        }

        if (CoversIds)
        {
            text.Append("\n  covers: _id (a projection of only _id reads no document)");
        }

        if (Query.Sort.Count > 0)
        {
            text.Append("\n  sort: ").Append(NeedsSort ? "in memory by " + string.Join(", ", Query.Sort) : "none (index order)");
        }

        if (Query.Skip is not null || Query.Take is not null)
        {
            text.Append("\n  skip: ").Append(Query.Skip?.ToString() ?? "0")
                .Append(", take: ").Append(Query.Take?.ToString() ?? "all");
        }

        return text.ToString();
    }

    public override string ToString() => Explain();

    private static string StrategyName(PlanStrategy strategy) => strategy switch
    {
        PlanStrategy.UniqueEquality => "unique equality",
        PlanStrategy.Equality => "equality",
        PlanStrategy.In => "in",
        PlanStrategy.Range => "range",
        PlanStrategy.Prefix => "prefix",
        PlanStrategy.Order => "order",
        _ => "full scan",
    };
}
