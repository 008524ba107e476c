using BLite.Core.Storage;
using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class DocumentDbContextTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(Durability.Full)]
    [InlineData(Durability.Normal)]
    public void Data_survives_dispose_and_reopen_in_each_file_durability(Durability durability)
    {
        var options = new DocumentDbContextOptions { Path = _directory.File(), Durability = durability, PageSize = 4096, CacheBudgetBytes = 1024 * 1024 };
        var orders = Orders.Many(50);
        using (var db = new ShopContext(options))
        {
            db.Orders.InsertMany(orders);
        }

        using var reopened = new ShopContext(options);
        Assert.Equal(50, reopened.Orders.Count());
        Assert.All(orders, o => OrderAssert.Same(o, reopened.Orders.FindById(o.Id)));
        Assert.True(reopened.Database.Verify().IsValid);
    }

    [Fact]
    public void An_in_memory_context_keeps_nothing_on_disk()
    {
        using var db = new ShopContext(DocumentDbContextOptions.ForMemory());
        db.Orders.Insert(Orders.Create(1));

        Assert.Equal(1, db.Orders.Count());
        Assert.Empty(Directory.EnumerateFileSystemEntries(_directory.Path));
    }

    [Fact]
    public void A_path_together_with_in_memory_durability_is_refused()
    {
        var path = _directory.File();
        var options = new DocumentDbContextOptions { Path = path, Durability = Durability.InMemory };

        var error = Assert.Throws<ArgumentException>(() => new ShopContext(options));

        Assert.Contains("Durability.InMemory", error.Message);
        Assert.Contains(path, error.Message);
        Assert.False(File.Exists(path));
    }

    [Fact]
    public void The_model_names_the_collection_and_creates_its_indexes_on_open()
    {
        using var db = new ShopContext(_directory.File());

        Assert.Equal("orders", db.Orders.Name);
        using var read = db.Engine.BeginRead();
        var indexes = db.Engine.GetRawCollection("orders").GetIndexes(read)
            .Select(i => $"{i.Name}:{string.Join(",", i.FieldPaths)}:{i.Unique}").Order(StringComparer.Ordinal).ToList();
        Assert.Equal(
            ["ix_Customer.email:Customer.email:True", "ix_Lines.Sku:Lines.Sku:False", "ix_Status:Status:False", "ix_Status_PlacedAt:Status,PlacedAt:False"],
            indexes);
    }

    [Fact]
    public void A_second_context_on_the_same_file_is_refused_while_the_first_is_open()
    {
        using var first = new ShopContext(_directory.File());

        Assert.ThrowsAny<BLiteException>(() => new ShopContext(_directory.File()));
    }

    [Fact]
    public void Operations_after_dispose_throw_ObjectDisposedException()
    {
        var db = new ShopContext(_directory.File());
        db.Dispose();

        Assert.Throws<ObjectDisposedException>(() => db.Orders.Count());
    }

    [Fact]
    public async Task A_transaction_is_seen_by_continuations_running_on_other_threads()
    {
        using var db = new ShopContext(_directory.File());
        await using var tx = await db.BeginTransactionAsync();
        var (onThreadPool, seen) = await InsertOnThreadPoolAsync(db);

        Assert.True(onThreadPool);
        Assert.Same(tx, seen);
        await tx.CommitAsync();
        Assert.Equal(1, db.Orders.Count());
    }

    private static async Task<(bool OnThreadPool, DocumentTransaction? Seen)> InsertOnThreadPoolAsync(ShopContext db)
    {
        // Another thread completes the awaited task and the continuation is queued to the pool,
        // away from the test's synchronization context.
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var worker = new Thread(() => gate.SetResult());
        worker.Start();
        await gate.Task.ConfigureAwait(false);
        worker.Join();
        await db.Orders.InsertAsync(Orders.Create(1)).ConfigureAwait(false);
        return (Thread.CurrentThread.IsThreadPoolThread, db.CurrentTransaction);
    }
}
