using BLite.Core.Query;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// Which journaled changes a watcher receives: of one collection or all, of some operations, and
/// whose document passes a query filter, tested on the raw C-BSON like any query. A delete whose
/// collection keeps no before-image has no document to test and always passes the predicate, so a
/// watcher never misses the removal of a document it may hold.
/// </summary>
internal sealed class JournalFilter
{
    public static JournalFilter All { get; } = new(null, null, null);

    public JournalFilter(string? collection, IReadOnlyCollection<ChangeOperation>? operations, QueryFilter? predicate, IReadOnlyList<BsonValue>? parameters = null)
    {
        Parameters = parameters;
        Collection = collection;
        Operations = operations is null || operations.Count == 0 ? null : [.. operations];
        Predicate = predicate;
    }

    public string? Collection { get; }

    public HashSet<ChangeOperation>? Operations { get; }

    public QueryFilter? Predicate { get; }

    /// <summary>Values of the predicate's parameter slots (a translated LINQ predicate has some).</summary>
    public IReadOnlyList<BsonValue>? Parameters { get; }

    public bool Matches(JournalEvent change, FilterEvaluator? predicate)
    {
        if (Collection is not null && !string.Equals(Collection, change.Collection, StringComparison.Ordinal))
        {
            return false;
        }

        if (Operations is not null && !Operations.Contains(change.Operation))
        {
            return false;
        }

        return predicate is null || change.Subject is not { } document || predicate.Matches(document);
    }
}
