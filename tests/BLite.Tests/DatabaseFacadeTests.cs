using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class DatabaseFacadeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void The_facade_names_the_database_files_or_none_in_memory()
    {
        var path = _directory.File();
        using (var db = new ShopContext(path))
        {
            Assert.Equal(Path.GetFullPath(path), db.Database.Path);
            Assert.Equal(Path.GetFullPath(path) + "-wal", db.Database.WalPath);
            Assert.False(db.Database.IsInMemory);
            Assert.Equal(8192, db.Database.PageSize);
            Assert.True(db.Database.AcceptsWrites);
            Assert.Null(db.Database.WriteRefusalReason);
        }

        using var memory = new ShopContext(DocumentDbContextOptions.ForMemory());
        Assert.True(memory.Database.IsInMemory);
        Assert.Null(memory.Database.Path);
        Assert.Null(memory.Database.WalPath);
    }

    [Fact]
    public void Statistics_count_commits_and_checkpoints_and_verify_checks_the_whole_file()
    {
        using var db = new ShopContext(_directory.File());
        var before = db.Database.GetStatistics();

        db.Orders.InsertMany(Orders.Many(20));
        db.Database.Checkpoint();

        var after = db.Database.GetStatistics();
        Assert.Equal(before.Commits + 1, after.Commits);
        Assert.True(after.Checkpoints > before.Checkpoints);
        var report = db.Database.Verify();
        Assert.True(report.IsValid, report.ToString());
        Assert.True(report.PageCount > 1);
    }

    [Fact]
    public void Schemaless_collections_and_collection_names_come_from_the_facade()
    {
        using var db = new ShopContext(_directory.File());
        var events = db.Database.GetCollection("events");
        events.Insert(new BsonDocument { ["kind"] = "login" });

        Assert.Same(events, db.Database.GetCollection("events"));
        Assert.Contains("events", db.Database.GetCollectionNames());
        Assert.Contains("orders", db.Database.GetCollectionNames());
    }

    [Fact]
    public void DropCollection_takes_part_in_the_current_transaction()
    {
        using var db = new ShopContext(_directory.File());
        db.Database.GetCollection("events").Insert(new BsonDocument { ["kind"] = "login" });

        using (db.BeginTransaction())
        {
            Assert.True(db.Database.DropCollection("events"));
            Assert.DoesNotContain("events", db.Database.GetCollectionNames());
        }

        Assert.Equal(1, db.Database.GetCollection("events").Count());
        Assert.True(db.Database.DropCollection("events"));
        Assert.False(db.Database.DropCollection("events"));
        Assert.DoesNotContain("events", db.Database.GetCollectionNames());
    }

    [Fact]
    public void Backup_writes_a_consistent_verified_copy_as_of_the_call()
    {
        var source = _directory.File();
        var copy = _directory.File("backup.blite");
        var orders = Orders.Many(40);
        using (var db = new ShopContext(source))
        {
            db.Orders.InsertMany(orders);
            db.Database.GetCollection("events").Insert(new BsonDocument { ["kind"] = "login" });

            Assert.Equal(41, db.Database.Backup(copy));

            db.Orders.Insert(Orders.Create(1000));
            Assert.Equal(41, db.Orders.Count());
        }

        using var restored = new ShopContext(copy);
        Assert.Equal(40, restored.Orders.Count());
        OrderAssert.Same(orders[7], restored.Orders.FindById(orders[7].Id));
        Assert.Equal(orders.Count(o => o.Status == "shipped"), restored.Orders.Count(o => o.Status == "shipped"));
        Assert.Equal(1, restored.Database.GetCollection("events").Count());
        Assert.True(restored.Database.Verify().IsValid);
    }

    [Fact]
    public async Task Backup_of_an_in_memory_database_makes_a_file_and_refuses_an_existing_destination()
    {
        var copy = _directory.File("backup.blite");
        using var db = new ShopContext(DocumentDbContextOptions.ForMemory());
        db.Orders.InsertMany(Orders.Many(5));

        Assert.Equal(5, await db.Database.BackupAsync(copy));
        var length = new FileInfo(copy).Length;

        var error = Assert.Throws<BLiteException>(() => db.Database.Backup(copy));
        Assert.Contains("already exists", error.Message, StringComparison.Ordinal);
        Assert.Equal(length, new FileInfo(copy).Length);
        using var restored = new ShopContext(copy);
        Assert.Equal(5, restored.Orders.Count());
    }

    [Fact]
    public async Task FindAsync_streams_lazily_and_honours_cancellation()
    {
        using var db = new ShopContext(_directory.File());
        db.Orders.InsertMany(Orders.Many(10));

        // Nothing runs until the stream is enumerated: documents inserted meanwhile are seen.
        var shipped = db.Orders.FindAsync(o => o.Status == "shipped");
        db.Orders.InsertMany(Enumerable.Range(11, 10).Select(n => Orders.Create(n)));
        var expected = db.Orders.Count(o => o.Status == "shipped");
        Assert.Equal(expected, (await shipped.ToListAsync()).Count);
        Assert.Equal(20, await db.Orders.FindAllAsync().CountAsync());

        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var order in db.Orders.FindAllAsync(cancelled.Token))
            {
                Assert.Fail($"read {order.Id} after cancellation");
            }
        });
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var document in db.Database.GetCollection("orders").FindAsync("{}").WithCancellation(cancelled.Token))
            {
                Assert.Fail($"read {document["_id"]} after cancellation");
            }
        });
    }
}
