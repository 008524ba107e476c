using BLite.Bson;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

// Filtered reads and deletes, planned over the collection's indexes (PlanExecutor). A filter is
// a QueryFilter or a MongoDB-style JSON string (docs/query.md); null or "{}" matches everything.
internal sealed partial class TransactionalBsonCollection
{
    /// <summary>
    /// The matching documents, sorted by <paramref name="sort"/> (index order when none), after
    /// skipping <paramref name="skip"/>, at most <paramref name="take"/>. Enumerate while the
    /// transaction is open.
    /// </summary>
    public IEnumerable<BsonDocument> Find(IPageReader pages, QueryFilter? filter, IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null)
    {
        var query = BuildQuery(filter, sort, skip, take);
        foreach (var bytes in PlanExecutor.Execute(Documents, pages, query))
        {
            yield return BsonDocument.FromBytes(bytes.Span, Fields);
        }
    }

    public IEnumerable<BsonDocument> Find(IPageReader pages, string jsonFilter, IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null) =>
        Find(pages, ParseFilter(jsonFilter), sort, skip, take);

    /// <summary>The number of matching documents; nothing is deserialized.</summary>
    public long Count(IPageReader pages, QueryFilter? filter) => PlanExecutor.Count(Documents, pages, BuildQuery(filter, null, 0, null));

    public long Count(IPageReader pages, string jsonFilter) => Count(pages, ParseFilter(jsonFilter));

    /// <summary>Deletes every matching document in the caller's transaction; returns how many.</summary>
    public int DeleteMany(IPageWriter pages, QueryFilter? filter)
    {
        // Collect first: deleting while a cursor walks the same trees would move it.
        var primaryKeys = new List<byte[]>();
        foreach (var bytes in PlanExecutor.Execute(Documents, pages, BuildQuery(filter, null, 0, null)))
        {
            primaryKeys.Add(Documents.GetPrimaryKey(bytes.Span));
        }

        foreach (var primaryKey in primaryKeys)
        {
            Documents.Delete(pages, primaryKey);
        }

        return primaryKeys.Count;
    }

    public int DeleteMany(IPageWriter pages, string jsonFilter) => DeleteMany(pages, ParseFilter(jsonFilter));

    /// <summary>How <see cref="Find(IPageReader, QueryFilter?, IReadOnlyList{SortKey}?, long, long?)"/> would run, as plan text.</summary>
    public string Explain(IPageReader pages, QueryFilter? filter, IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null) =>
        PlanExecutor.Explain(Documents, pages, BuildQuery(filter, sort, skip, take));

    private static QueryFilter ParseFilter(string jsonFilter)
    {
        ArgumentNullException.ThrowIfNull(jsonFilter);
        return JsonFilterParser.Parse(jsonFilter);
    }

    private static DocumentQuery BuildQuery(QueryFilter? filter, IReadOnlyList<SortKey>? sort, long skip, long? take)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        if (take is < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(take), take, "Take must be non-negative.");
        }

        return new DocumentQuery(filter, sort,
            skip == 0 ? null : FilterOperand.FromConstant(skip),
            take is { } count ? FilterOperand.FromConstant(count) : null);
    }
}
