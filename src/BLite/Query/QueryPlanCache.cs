using System.Runtime.CompilerServices;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Query;

/// <summary>
/// The plans of one typed collection's cached query shapes. The planner looks at the shape and the
/// index list only, and the LINQ layer hands the same <see cref="DocumentQuery"/> instance back for
/// every execution of a shape, so a plan is kept per instance together with the index list it was
/// made for. That list is the catalog snapshot's own immutable object, replaced whenever an index
/// is created or dropped: a reader whose snapshot sees another list (a concurrent EnsureIndex or
/// DropIndex, committed before or after it started) plans again for what it sees, so a plan never
/// outlives the indexes it names. Entries go with their queries (weak keys).
/// </summary>
internal sealed class QueryPlanCache(Func<string, bool> singleValuedPaths)
{
    private static readonly object NoCollection = new();
    private readonly ConditionalWeakTable<DocumentQuery, Entry> _plans = new();
    private int _misses;

    public Func<string, bool> SingleValuedPaths { get; } = singleValuedPaths;

    /// <summary>How many times a plan had to be made (a new shape, or the index list changed).</summary>
    public int Misses => _misses;

    public QueryPlan Get(RawCollection collection, IPageReader pages, DocumentQuery query)
    {
        var indexes = (object?)collection.Resolve(pages)?.Indexes ?? NoCollection;
        if (_plans.TryGetValue(query, out var entry) && ReferenceEquals(entry.Indexes, indexes))
        {
            return entry.Plan;
        }

        Interlocked.Increment(ref _misses);
        var plan = CollectionQuerySource.Plan(collection, pages, query, SingleValuedPaths);
        _plans.AddOrUpdate(query, new Entry(indexes, plan));
        return plan;
    }

    private sealed record Entry(object Indexes, QueryPlan Plan);
}
