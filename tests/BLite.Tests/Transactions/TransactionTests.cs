using BLite.Bson;
using BLite.Core;
using BLite.Tests.Model;

namespace BLite.Tests.Transactions;

public sealed class TransactionTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public TransactionTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Commit_makes_writes_to_several_collections_visible_together()
    {
        using (var tx = _db.BeginTransaction())
        {
            _db.Orders.Insert(Orders.Create(1));
            _db.IntItems.Insert(new IntItem { Name = "a" });
            _db.Labels.Insert(new Label { Id = "l", Text = "t" });
            tx.Commit();
        }

        Assert.Equal(1, _db.Orders.Count());
        Assert.Equal(1, _db.IntItems.Count());
        Assert.Equal(1, _db.Labels.Count());
        Assert.Null(_db.CurrentTransaction);
    }

    [Fact]
    public void Explicit_rollback_leaves_no_trace()
    {
        var kept = _db.Orders.Insert(Orders.Create(1));
        var tx = _db.BeginTransaction();
        _db.Orders.Insert(Orders.Create(2));
        _db.Orders.Delete(kept);
        _db.IntItems.Insert(new IntItem { Name = "a" });

        tx.Rollback();
        tx.Dispose();

        Assert.Equal(1, _db.Orders.Count());
        Assert.NotNull(_db.Orders.FindById(kept));
        Assert.Equal(0, _db.IntItems.Count());
        Assert.True(_db.Database.Verify().IsValid);
    }

    [Fact]
    public void Disposing_without_commit_rolls_back()
    {
        using (_db.BeginTransaction())
        {
            _db.Orders.InsertMany(Orders.Many(10));
        }

        Assert.Equal(0, _db.Orders.Count());
    }

    [Fact]
    public void An_exception_leaving_the_using_block_rolls_back()
    {
        void Work()
        {
            using var tx = _db.BeginTransaction();
            _db.Orders.Insert(Orders.Create(1));
            throw new InvalidOperationException("boom");
        }

        Assert.Throws<InvalidOperationException>(Work);

        Assert.Equal(0, _db.Orders.Count());
    }

    [Fact]
    public async Task Reads_inside_see_the_transactions_own_writes_and_reads_outside_do_not()
    {
        using var tx = _db.BeginTransaction();
        var id = _db.Orders.Insert(Orders.Create(1));

        Assert.NotNull(_db.Orders.FindById(id));
        Assert.Equal(1, _db.Orders.Count());
        Assert.Single(_db.Orders.Find(o => o.Status == Orders.Create(1).Status));

        // Another flow (no ambient transaction) reads the last commit and is not blocked by the writer.
        Task<(int Count, CustomerOrder? Found)> reader;
        using (ExecutionContext.SuppressFlow())
        {
            reader = Task.Run(() => (_db.Orders.Count(), _db.Orders.FindById(id)));
        }

        var outside = await reader;
        Assert.Equal(0, outside.Item1);
        Assert.Null(outside.Item2);
        tx.Commit();
    }

    [Fact]
    public void A_unique_violation_inside_a_transaction_changes_nothing_and_the_transaction_can_still_commit()
    {
        using var tx = _db.BeginTransaction();
        var first = Orders.Create(1);
        _db.Orders.Insert(first);
        var clash = Orders.Create(2);
        clash.Customer.Email = first.Customer.Email;

        Assert.Throws<BLiteUniqueConstraintException>(() => _db.Orders.Insert(clash));
        _db.Orders.Insert(Orders.Create(3));
        tx.Commit();

        Assert.Equal(2, _db.Orders.Count());
        Assert.True(_db.Database.Verify().IsValid);
    }

    [Fact]
    public void Looping_over_Find_inside_a_transaction_may_update_what_it_reads()
    {
        _db.Orders.InsertMany(Orders.Many(20));
        using (var tx = _db.BeginTransaction())
        {
            foreach (var order in _db.Orders.Find(o => o.Status == "pending"))
            {
                order.Status = "cancelled";
                _db.Orders.Update(order);
            }

            tx.Commit();
        }

        Assert.Equal(0, _db.Orders.Count(o => o.Status == "pending"));
        Assert.Equal(5, _db.Orders.Count(o => o.Status == "cancelled"));
    }

    [Fact]
    public void Nested_transactions_are_refused_and_an_ended_one_refuses_work()
    {
        var tx = _db.BeginTransaction();
        Assert.Throws<InvalidOperationException>(() => _db.BeginTransaction());
        tx.Commit();

        Assert.Throws<InvalidOperationException>(tx.Commit);
        tx.Rollback();
        tx.Dispose();
        using var next = _db.BeginTransaction();
        next.Commit();
    }

    [Fact]
    public async Task A_transaction_flows_across_awaits_that_resume_on_other_threads()
    {
        await using var tx = await _db.BeginTransactionAsync();
        for (var i = 0; i < 20; i++)
        {
            await _db.Orders.InsertAsync(Orders.Create(i + 1));
            await Task.Yield();
            await Task.Run(() => _db.Orders.Insert(Orders.Create(100 + i)));
        }

        Assert.Same(tx, _db.CurrentTransaction);
        Assert.Equal(40, await _db.Orders.CountAsync());
        await tx.CommitAsync();

        Assert.Equal(40, _db.Orders.Count());
        Assert.Null(_db.CurrentTransaction);
    }

    [Fact]
    public async Task An_async_transaction_disposed_without_commit_rolls_back()
    {
        await using (var tx = await _db.BeginTransactionAsync())
        {
            await _db.Orders.InsertManyAsync(Orders.Many(3));
            Assert.Equal(3, await _db.Orders.CountAsync());
        }

        Assert.Equal(0, await _db.Orders.CountAsync());
    }

    [Fact]
    public async Task Tasks_started_inside_a_transaction_join_it()
    {
        await using var tx = await _db.BeginTransactionAsync();
        await Task.WhenAll(Enumerable.Range(1, 8).Select(n => Task.Run(() => _db.Orders.InsertAsync(Orders.Create(n)))));
        await tx.CommitAsync();

        Assert.Equal(8, _db.Orders.Count());
    }

    [Fact]
    public async Task Concurrent_transactions_from_many_tasks_serialize_and_every_commit_is_present()
    {
        const int Writers = 8;
        const int PerWriter = 5;
        var committedIds = await Task.WhenAll(Enumerable.Range(0, Writers).Select(writer => Task.Run(async () =>
        {
            var ids = new List<int>();
            for (var round = 0; round < PerWriter; round++)
            {
                await using var tx = await _db.BeginTransactionAsync();
                var before = await _db.IntItems.CountAsync();
                var first = await _db.IntItems.InsertAsync(new IntItem { Name = $"w{writer}-{round}-a" });
                var second = await _db.IntItems.InsertAsync(new IntItem { Name = $"w{writer}-{round}-b" });
                // Writers serialize: nobody else commits between our read and our writes.
                Assert.Equal(before + 2, await _db.IntItems.CountAsync());
                if (round % 2 == 0)
                {
                    await tx.CommitAsync();
                    ids.Add(first);
                    ids.Add(second);
                }
            }

            return ids;
        })));

        var expected = committedIds.SelectMany(ids => ids).Order().ToList();
        Assert.Equal(expected, _db.IntItems.FindAll().Select(i => i.Id).ToList());
        Assert.Equal(expected.Count, expected.Distinct().Count());
        Assert.True(_db.Database.Verify().IsValid);
    }

    [Fact]
    public void Closing_the_database_in_the_middle_of_a_transaction_loses_only_that_transaction()
    {
        // Stands in for a crash between two operations of one transaction: the engine closes with
        // the writer slot taken, so nothing of the transaction is committed or checkpointed.
        var path = _directory.File("crash.blite");
        ObjectId committed;
        var db = new ShopContext(path);
        committed = db.Orders.Insert(Orders.Create(1));
        var tx = db.BeginTransaction();
        db.Orders.Insert(Orders.Create(2));
        db.IntItems.Insert(new IntItem { Name = "lost" });
        db.Dispose();

        using var reopened = new ShopContext(path);
        Assert.Equal(1, reopened.Orders.Count());
        Assert.NotNull(reopened.Orders.FindById(committed));
        Assert.Equal(0, reopened.IntItems.Count());
        Assert.True(reopened.Database.Verify().IsValid);
        GC.KeepAlive(tx);
    }
}
