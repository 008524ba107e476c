using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using BLite.PostgreSql.Tests.Storage;

namespace BLite.PostgreSql.Tests.Transactions;

/// <summary>Explicit transactions, one test class for both providers (plus PostgreSQL's write conflicts).</summary>
[Collection(PostgresCollection.Name)]
public sealed class TransactionTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_committed_transaction_keeps_every_write_and_a_rolled_back_one_none(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var kept = CrudTests.NewOrder("K-1", "k@x");
        var dropped = CrudTests.NewOrder("D-1", "d@x");

        using (var transaction = context.BeginTransaction())
        {
            context.Orders.Insert(kept);
            Assert.Equal("K-1", context.Orders.FindById(kept.Id)!.Number);
            transaction.Commit();
        }

        using (var transaction = context.BeginTransaction())
        {
            context.Orders.Insert(dropped);
            context.Orders.Delete(kept.Id);
            Assert.Equal(1, context.Orders.Count());
            transaction.Rollback();
        }

        Assert.NotNull(context.Orders.FindById(kept.Id));
        Assert.Null(context.Orders.FindById(dropped.Id));
        Assert.Null(context.CurrentTransaction);
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_refused_insert_leaves_the_transaction_usable(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var first = CrudTests.NewOrder("A-1", "a@x");
        var second = CrudTests.NewOrder("B-1", "b@x");

        using (var transaction = context.BeginTransaction())
        {
            context.Orders.Insert(first);
            Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Insert(CrudTests.NewOrder("dup", "c@x", first.Id)));
            context.Orders.Insert(second);
            transaction.Commit();
        }

        Assert.Equal(2, context.Orders.Count());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task An_async_transaction_flows_into_awaits_and_tasks(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        await using var context = new ProviderContext(database.Options());

        await using (var transaction = await context.BeginTransactionAsync())
        {
            await Task.WhenAll(
                Task.Run(() => context.Orders.InsertAsync(CrudTests.NewOrder("A-1", "a@x"))),
                Task.Run(() => context.Orders.InsertAsync(CrudTests.NewOrder("B-1", "b@x"))));
            Assert.Same(transaction, context.CurrentTransaction);
            await transaction.CommitAsync();
        }

        Assert.Equal(2, await context.Orders.CountAsync());
    }

    [Fact]
    public void A_transaction_reads_its_snapshot_and_a_conflicting_write_is_reported_not_lost()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var first = new ProviderContext(database.Options());
        using var second = new ProviderContext(database.Options());
        var order = CrudTests.NewOrder("A-1", "a@x");
        first.Orders.Insert(order);

        using var transaction = first.BeginTransaction();
        Assert.Equal("pending", first.Orders.FindById(order.Id)!.Status);
        order.Status = "shipped";
        second.Orders.Update(order);
        Assert.Equal("pending", first.Orders.FindById(order.Id)!.Status);

        order.Status = "cancelled";
        Assert.Throws<BLiteWriteConflictException>(() => first.Orders.Update(order));
        transaction.Dispose();

        Assert.Equal("shipped", second.Orders.FindById(order.Id)!.Status);
    }
}
