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

    [Fact]
    public void A_join_over_many_values_spanning_many_leaves_returns_what_a_full_scan_returns()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var indexed = database.GetCollection("indexed");
        var scanned = database.GetCollection("scanned");
        indexed.EnsureIndex("by_owner", "owner");
        var random = new Random(5);
        for (var i = 0; i < 3000; i++)
        {
            // A long padding field keeps few entries per index leaf once the key grows with it.
            var document = new BsonDocument { { "_id", random.Next() }, { "owner", $"owner-{random.Next(400):D4}-{new string('x', 40)}" } };
            indexed.Insert(document);
            scanned.Insert(document);
        }

        // Ascending and shuffled values, duplicates, and values no document has (before, between and after the stored ones).
        var values = Enumerable.Range(0, 400).Where(v => v % 3 != 1).Select(v => (BsonValue)$"owner-{v:D4}-{new string('x', 40)}").ToList();
        values.AddRange(["aaa", "owner-0001", "owner-9999", "zzz", values[7], values[7]]);
        foreach (var list in new[] { values.OrderBy(v => v.AsString, StringComparer.Ordinal).ToList(), values.OrderBy(_ => random.Next()).ToList(), values.Take(3).ToList() })
        {
            var filter = QueryFilter.In("owner", new BsonArray(list));
            var expected = scanned.Find(filter).Select(d => d["_id"].AsInt32).ToList();
            Assert.True(expected.Count > (list.Count > 10 ? 1000 : 0), "the values should match documents");
            Assert.Equal(expected, indexed.Find(filter).Select(d => d["_id"].AsInt32).ToList());
            Assert.Equal(expected.Count, indexed.Count(filter));
        }

        Assert.Contains("fetch: index join", indexed.Explain(QueryFilter.In("owner", new BsonArray(values))), StringComparison.Ordinal);
    }

    [Fact]
    public void A_join_through_values_no_document_has_returns_nothing()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        for (var i = 0; i < 50; i++)
        {
            items.Insert(new BsonDocument { { "_id", i }, { "n", i * 2 } });
        }

        Assert.Empty(items.Find(QueryFilter.In("n", new BsonArray { 1, 3, 1001, -7 })));
        Assert.Empty(items.Find(QueryFilter.In("n", new BsonArray())));
        Assert.Equal(0, items.Count(QueryFilter.In("n", new BsonArray { 1, 3 })));
    }

    [Fact]
    public void A_join_under_a_snapshot_does_not_see_writes_made_after_it_began()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        for (var i = 0; i < 200; i++)
        {
            items.Insert(new BsonDocument { { "_id", i }, { "n", i % 10 } });
        }

        var filter = QueryFilter.In("n", new BsonArray { 3, 7 });
        using var read = database.BeginRead();
        // Enough writes after the snapshot to split the index's leaves and change the join's runs.
        for (var i = 200; i < 1200; i++)
        {
            items.Insert(new BsonDocument { { "_id", i }, { "n", i % 10 } });
        }

        items.Delete(3);

        var before = items.Find(read, filter).Select(d => d["_id"].AsInt32).ToList();
        Assert.Equal(Enumerable.Range(0, 200).Where(i => i % 10 is 3 or 7).ToList(), before);
        var after = items.Find(filter).Select(d => d["_id"].AsInt32).ToList();
        Assert.Equal(Enumerable.Range(0, 1200).Where(i => i != 3 && i % 10 is 3 or 7).ToList(), after);
    }

    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();
}
