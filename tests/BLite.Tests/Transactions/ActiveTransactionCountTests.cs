using BLite.Tests.Model;

namespace BLite.Tests.Transactions;

/// <summary>
/// Operations skip the flow's transaction lookup while the context counts no active transaction,
/// so the count must rise for every transaction and fall back to 0 however it ends.
/// </summary>
public sealed class ActiveTransactionCountTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public ActiveTransactionCountTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Commit_rollback_and_dispose_each_end_the_count_once()
    {
        Assert.Equal(0, _db.ActiveTransactionCount);

        var committed = _db.BeginTransaction();
        Assert.Equal(1, _db.ActiveTransactionCount);
        var id = _db.Orders.Insert(Orders.Create(1));
        Assert.NotNull(_db.Orders.FindById(id));
        committed.Commit();
        committed.Dispose();
        Assert.Equal(0, _db.ActiveTransactionCount);

        var rolledBack = _db.BeginTransaction();
        _db.Orders.Delete(id);
        Assert.Null(_db.Orders.FindById(id));
        rolledBack.Rollback();
        rolledBack.Rollback();
        rolledBack.Dispose();
        Assert.Equal(0, _db.ActiveTransactionCount);

        using (_db.BeginTransaction())
        {
            _db.Orders.Delete(id);
        }

        Assert.Equal(0, _db.ActiveTransactionCount);
        Assert.NotNull(_db.Orders.FindById(id));
        Assert.Null(_db.CurrentTransaction);
    }

    [Fact]
    public async Task An_async_transaction_is_seen_by_its_flow_only_while_it_is_active()
    {
        var id = await _db.Orders.InsertAsync(Orders.Create(1));
        var tx = await _db.BeginTransactionAsync();
        Assert.Equal(1, _db.ActiveTransactionCount);
        await _db.Orders.DeleteAsync(id);

        // A flow that does not inherit the transaction reads the last commit while it is counted.
        Task<bool> elsewhere;
        using (ExecutionContext.SuppressFlow())
        {
            elsewhere = Task.Run(() => _db.CurrentTransaction is null && _db.Orders.FindById(id) is not null);
        }

        Assert.True(await elsewhere);
        Assert.Null(await _db.Orders.FindByIdAsync(id));
        await tx.CommitAsync();
        await tx.DisposeAsync();

        Assert.Equal(0, _db.ActiveTransactionCount);
        Assert.Null(_db.CurrentTransaction);
        Assert.Null(await _db.Orders.FindByIdAsync(id));
    }
}
