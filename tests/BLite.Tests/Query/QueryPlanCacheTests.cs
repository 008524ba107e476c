using BLite.Linq;
using BLite.Tests.Model;

namespace BLite.Tests.Query;

/// <summary>
/// A typed collection plans each LINQ query shape once, and plans again when the snapshot it reads
/// sees another index list: an index created or dropped while a query of that shape is still being
/// read never leaves a stale plan behind, and the open query finishes on its own snapshot.
/// </summary>
public sealed class QueryPlanCacheTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public QueryPlanCacheTests()
    {
        _db = new ShopContext(_directory.File());
        _db.Orders.InsertMany(Orders.Many(60));
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    private IQueryable<CustomerOrder> ByNumber(string number) => _db.Orders.Query().Where(o => o.OrderNumber == number);

    [Fact]
    public void A_repeated_shape_is_planned_once()
    {
        var before = _db.Orders.Plans.Misses;
        for (var n = 1; n <= 20; n++)
        {
            Assert.Equal($"ORD-{n:D5}", ByNumber($"ORD-{n:D5}").Single().OrderNumber);
        }

        Assert.Equal(before + 1, _db.Orders.Plans.Misses);
    }

    [Fact]
    public void Creating_and_dropping_an_index_while_a_query_of_the_shape_is_open_replans_and_keeps_results_right()
    {
        var raw = _db.Database.GetCollection(_db.Orders.Name);
        Assert.StartsWith("COLLSCAN", ByNumber("ORD-00001").Explain(), StringComparison.Ordinal);
        for (var round = 0; round < 6; round++)
        {
            var creating = round % 2 == 0;
            using var open = ByNumber($"ORD-{round + 1:D5}").GetEnumerator();
            Assert.True(open.MoveNext());

            Assert.True(creating ? raw.EnsureIndex("by_number", "OrderNumber") : raw.DropIndex("by_number"));

            var misses = _db.Orders.Plans.Misses;
            Assert.StartsWith(creating ? "IXSCAN by_number" : "COLLSCAN", ByNumber("ORD-00030").Explain(), StringComparison.Ordinal);
            Assert.Equal("ORD-00030", ByNumber("ORD-00030").Single().OrderNumber);
            Assert.Equal("ORD-00031", ByNumber("ORD-00031").Single().OrderNumber);
            // Replanned once for the Explain shape and once for Single's; the second Single reuses it.
            Assert.Equal(misses + 2, _db.Orders.Plans.Misses);

            // The query opened before the change finishes on its own snapshot and plan.
            Assert.Equal($"ORD-{round + 1:D5}", open.Current.OrderNumber);
            Assert.False(open.MoveNext());
        }
    }
}
