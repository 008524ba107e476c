using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>
/// An <c>$in</c> through a secondary index without an order runs as an index join: the runs'
/// primary keys are gathered, sorted and de-duplicated, and the documents come out in <c>_id</c>
/// order, as a full scan returns them.
/// </summary>
public class IndexJoinTests
{
    [Fact]
    public void An_in_through_a_multikey_index_returns_each_document_once_in_id_order()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_tags", "tags");
        // Ids inserted out of order; index order (by tag, then id) differs from _id order.
        items.Insert(new BsonDocument { { "_id", 9 }, { "tags", new BsonArray { "a", "b" } } });
        items.Insert(new BsonDocument { { "_id", 2 }, { "tags", new BsonArray { "c" } } });
        items.Insert(new BsonDocument { { "_id", 5 }, { "tags", new BsonArray { "b", "c", "a" } } });
        items.Insert(new BsonDocument { { "_id", 1 }, { "tags", new BsonArray { "d" } } });
        items.Insert(new BsonDocument { { "_id", 7 }, { "tags", "c" } });

        var filter = QueryFilter.In("tags", new BsonArray { "c", "a", "b", "a" });

        Assert.Contains("fetch: index join", items.Explain(filter), StringComparison.Ordinal);
        Assert.Equal([2, 5, 7, 9], Ids(items.Find(filter)));
        Assert.Equal([5, 7], Ids(items.Find(filter, skip: 1, take: 2)));
        Assert.Equal(4, items.Count(filter));
    }

    [Fact]
    public void An_in_over_instants_whose_runs_overlap_returns_each_document_once_in_id_order()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_at", "at");
        var start = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        for (var i = 0; i < 40; i++)
        {
            items.Insert(new BsonDocument { { "_id", 40 - i }, { "at", start.AddHours(i) } });
        }

        // Each instant's run spans ±15 h of keys, so the three runs overlap; the filter re-check keeps exact matches.
        var filter = QueryFilter.In("at", new BsonArray { start.AddHours(3), start.AddHours(1), start.AddHours(10) });

        Assert.Contains("fetch: index join", items.Explain(filter), StringComparison.Ordinal);
        Assert.Equal([30, 37, 39], Ids(items.Find(filter)));
    }

    [Fact]
    public void An_in_with_an_order_keeps_the_sorted_path()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        for (var i = 0; i < 30; i++)
        {
            items.Insert(new BsonDocument { { "_id", i }, { "n", i % 5 } });
        }

        var filter = QueryFilter.In("n", new BsonArray { 3, 1 });

        Assert.DoesNotContain("index join", items.Explain(filter, [new SortKey("n")]), StringComparison.Ordinal);
        Assert.Equal([1, 6, 11, 16, 21, 26, 3, 8, 13, 18, 23, 28], Ids(items.Find(filter, [new SortKey("n")])));
        Assert.Equal([1, 3, 6, 8, 11, 13, 16, 18, 21, 23, 26, 28], Ids(items.Find(filter)));
    }

    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();
}
