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

    [Fact]
    public void An_in_mixing_key_classes_returns_what_a_full_scan_returns()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var indexed = database.GetCollection("indexed");
        var scanned = database.GetCollection("scanned");
        indexed.EnsureIndex("by_v", "v");
        var at = new DateTime(2026, 3, 1, 12, 0, 0, DateTimeKind.Utc);
        var oid = ObjectId.NewObjectId();
        var guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
        // Numbers of every width, strings, ids, instants, booleans, binary, arrays, null and a missing field.
        BsonValue[] stored = [1, 2L, 2.0, 3.5m, "a", "b", oid, at, at.AddDays(1), true, guid, new BsonArray { 1, "b" }, new BsonArray(), BsonValue.Null];
        for (var i = 0; i < 60; i++)
        {
            var document = new BsonDocument { { "_id", 60 - i } };
            var slot = i % (stored.Length + 1);
            if (slot < stored.Length)
            {
                document["v"] = stored[slot];
            }

            indexed.Insert(document);
            scanned.Insert(document);
        }

        BsonArray[] lists =
        [
            [2],
            ["b", 1, 2.0, oid],
            [at, guid, true, "zzz", 3.5],
            [at.AddDays(1), at.AddDays(1), 99],
            [BsonValue.Null, 1],
        ];
        foreach (var list in lists)
        {
            var filter = QueryFilter.In("v", list);
            var expected = Ids(scanned.Find(filter));
            Assert.NotEmpty(expected);
            Assert.Equal(expected, Ids(indexed.Find(filter)));
            Assert.Equal(expected.Count, indexed.Count(filter));
        }

        Assert.Contains("fetch: index join", indexed.Explain(QueryFilter.In("v", lists[1])), StringComparison.Ordinal);
    }

    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();
}
