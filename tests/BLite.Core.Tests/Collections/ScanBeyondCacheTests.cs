using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// Scans over a collection many times larger than the page cache read the leaves the cache cannot
/// take into a cursor's own buffer (IPageReader.ReadPageTransient), and fetch the documents behind
/// an index through a finger on the primary tree: every document must still come back whole, once,
/// in the order promised, whichever leaf boundary it sits on.
/// </summary>
public sealed class ScanBeyondCacheTests
{
    private const int PageSize = 4096;
    private const long Budget = 16 * PageSize;
    private const int Documents = 3000;

    // "dense" documents share leaves with the next match; "sparse" ones lie several leaves apart.
    private static string Status(int id) => id % 2 == 0 ? "dense" : id % 37 == 5 ? "sparse" : "other";

    private static string Payload(int id) => new((char)('a' + (id % 26)), 100 + (id * 7919 % 700));

    private static CollectionsTestDatabase Populated(out TransactionalBsonCollection orders)
    {
        var test = new CollectionsTestDatabase(options: new StorageOptions { Durability = Durability.Normal, PageSize = PageSize, CacheBudgetBytes = Budget });
        orders = test.Collection("orders");
        orders.EnsureIndex("byStatus", "status");
        var ids = Enumerable.Range(0, Documents).ToArray();
        new Random(15).Shuffle(ids);
        foreach (var batch in ids.Chunk(300))
        {
            orders.InsertMany(batch.Select(i => new BsonDocument { ["_id"] = i, ["status"] = Status(i), ["payload"] = Payload(i) }));
        }

        test.Database.Checkpoint();
        return test;
    }

    private static List<int> Checked(IEnumerable<BsonDocument> documents)
    {
        var ids = new List<int>();
        foreach (var document in documents)
        {
            var id = document["_id"].AsInt32;
            Assert.Equal(Status(id), document["status"].AsString);
            Assert.Equal(Payload(id), document["payload"].AsString);
            ids.Add(id);
        }

        return ids;
    }

    private static void AssertCacheWasFull(CollectionsTestDatabase test)
    {
        var statistics = test.Database.Storage.GetStatistics();
        Assert.InRange(statistics.CachedBytes, Budget - PageSize, Budget);
        Assert.True(new FileInfo(test.Path).Length > 20 * Budget, $"the file ({new FileInfo(test.Path).Length} bytes) should dwarf the cache");
    }

    [Fact]
    public void A_full_scan_larger_than_the_cache_returns_every_document_in_id_order_both_ways()
    {
        using var test = Populated(out var orders);

        Assert.Equal(Enumerable.Range(0, Documents).ToList(), Checked(orders.FindAll()));
        Assert.Equal(Enumerable.Range(0, Documents).Reverse().ToList(), Checked(orders.FindAll(descending: true)));
        AssertCacheWasFull(test);

        // A second pass reads the same bytes, so nothing a transient read left behind was cached or reused wrongly.
        Assert.Equal(Enumerable.Range(0, Documents).ToList(), Checked(orders.FindAll()));
    }

    [Theory]
    [InlineData("dense")]
    [InlineData("sparse")]
    [InlineData("other")]
    public void An_index_scan_larger_than_the_cache_returns_each_match_in_index_order(string status)
    {
        using var test = Populated(out var orders);
        var expected = Enumerable.Range(0, Documents).Where(i => Status(i) == status).ToList();
        Assert.NotEmpty(expected);

        Assert.Equal(expected, Checked(orders.FindByIndex("byStatus", status)));
        Assert.Equal(Enumerable.Reverse(expected).ToList(), Checked(orders.FindByIndexRange("byStatus", status, status, descending: true)));

        var filter = QueryFilter.Eq("status", status);
        Assert.Contains("IXSCAN byStatus", orders.Explain(filter));
        Assert.Equal(expected, Checked(orders.Find(filter)));
        Assert.Equal(Enumerable.Reverse(expected).Take(7).ToList(), Checked(orders.Find(filter, [new SortKey("_id", descending: true)], take: 7)));
        AssertCacheWasFull(test);
    }

    [Fact]
    public void An_index_range_over_every_status_returns_each_document_once_grouped_by_status()
    {
        using var test = Populated(out var orders);
        var expected = Enumerable.Range(0, Documents).OrderBy(Status, StringComparer.Ordinal).ThenBy(i => i).ToList();

        Assert.Equal(expected, Checked(orders.FindByIndexRange("byStatus", "a", "z")));
        AssertCacheWasFull(test);
    }
}
