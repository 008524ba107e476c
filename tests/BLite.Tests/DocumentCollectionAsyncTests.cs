using BLite.Bson;
using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class DocumentCollectionAsyncTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public DocumentCollectionAsyncTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public async Task Counting_follows_LINQ_int_for_Count_and_long_for_LongCount_on_collection_and_queryable()
    {
        var orders = Orders.Many(25);
        _db.Orders.InsertMany(orders);
        var shipped = orders.Count(o => o.Status == "shipped");
        Assert.InRange(shipped, 1, 24);

        int count = _db.Orders.Count();
        int matching = _db.Orders.Count(o => o.Status == "shipped");
        long longCount = _db.Orders.LongCount();
        long longMatching = _db.Orders.LongCount(o => o.Status == "shipped");
        int asyncCount = await _db.Orders.CountAsync();
        int asyncMatching = await _db.Orders.CountAsync(o => o.Status == "shipped");
        long asyncLongCount = await _db.Orders.LongCountAsync();
        long asyncLongMatching = await _db.Orders.LongCountAsync(o => o.Status == "shipped");
        int queryableMatching = _db.Orders.Query().Count(o => o.Status == "shipped");
        long queryableLongMatching = _db.Orders.Query().LongCount(o => o.Status == "shipped");

        Assert.Equal([25, shipped, 25, shipped, shipped], [count, matching, asyncCount, asyncMatching, queryableMatching]);
        Assert.Equal([25L, shipped, 25L, shipped, shipped], [longCount, longMatching, asyncLongCount, asyncLongMatching, queryableLongMatching]);
    }

    [Fact]
    public async Task Every_async_operation_matches_its_synchronous_twin()
    {
        var orders = Orders.Many(30);
        var single = orders[0];
        var id = await _db.Orders.InsertAsync(single);
        Assert.Equal(29, await _db.Orders.InsertManyAsync(orders.Skip(1)));

        OrderAssert.Same(single, await _db.Orders.FindByIdAsync(id));
        Assert.Null(await _db.Orders.FindByIdAsync(ObjectId.NewObjectId()));
        Assert.Equal(30, await _db.Orders.CountAsync());
        Assert.Equal(orders.LongCount(o => o.Status == "shipped"), await _db.Orders.CountAsync(o => o.Status == "shipped"));
        Assert.Equal(
            orders.Where(o => o.Total > 100m).Select(o => o.Id).Order(),
            (await _db.Orders.FindAsync(o => o.Total > 100m).ToListAsync()).Select(o => o.Id).Order());
        Assert.Equal(orders[4].Id, (await _db.Orders.FindOneAsync(o => o.OrderNumber == orders[4].OrderNumber))!.Id);
        Assert.Equal(orders.Select(o => o.Id).Order(), (await _db.Orders.FindAllAsync().ToListAsync()).Select(o => o.Id));
        Assert.True(await _db.Orders.ExistsAsync(o => o.Status == "pending"));
        Assert.True(await _db.Orders.ExistsAsync(id));

        single.Status = "delivered";
        Assert.True(await _db.Orders.UpdateAsync(single));
        Assert.Equal("delivered", (await _db.Orders.FindByIdAsync(id))!.Status);
        Assert.True(await _db.Orders.UpsertAsync(Orders.Create(99)));
        Assert.False(await _db.Orders.UpsertAsync(single));

        Assert.True(await _db.Orders.DeleteAsync(id));
        Assert.False(await _db.Orders.ExistsAsync(id));
        var remainingPending = orders.Skip(1).Count(o => o.Status == "pending");
        Assert.Equal(remainingPending, await _db.Orders.DeleteManyAsync(o => o.Status == "pending"));
        Assert.Equal(30 - remainingPending, await _db.Orders.CountAsync());
    }

    [Fact]
    public async Task A_cancelled_token_stops_a_write_before_it_starts()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => _db.Orders.InsertAsync(Orders.Create(1), cancelled.Token));

        Assert.Equal(0, _db.Orders.Count());
    }
}
