using BLite.Bson;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>
/// What one insert costs in round trips on PostgreSQL, and that the insert command the collection
/// reuses behaves the same on every connection, in and out of transactions.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class InsertStatementTests(PostgresCluster cluster)
{
    [Fact]
    public async Task One_insert_sends_one_statement()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        context.Orders.Insert(CrudTests.NewOrder("warm", "w@x"));
        using var statements = new NpgsqlStatements("\"orders\"");

        context.Orders.Insert(CrudTests.NewOrder("A-1", "a@x"));
        context.Orders.Insert(CrudTests.NewOrder("A-2", "b@x", ObjectId.NewObjectId()));
        await context.Orders.InsertAsync(CrudTests.NewOrder("A-3", "c@x"));

        Assert.Equal(3, statements.All.Count);
        Assert.All(statements.All, sql => Assert.StartsWith("INSERT INTO \"orders\" (id, doc) VALUES ($1, $2) ON CONFLICT DO NOTHING", sql, StringComparison.Ordinal));
        Assert.Equal(4, context.Orders.Count());
    }

    [Fact]
    public void A_sequence_id_adds_only_the_nextval()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        using var statements = new NpgsqlStatements("ounter");

        var id = context.Counters.Insert(new Counter { Name = "one" });

        Assert.Equal(2, statements.All.Count);
        Assert.StartsWith("SELECT nextval(", statements.All[0], StringComparison.Ordinal);
        Assert.StartsWith("INSERT INTO ", statements.All[1], StringComparison.Ordinal);
        Assert.Contains(" ON CONFLICT DO NOTHING", statements.All[1], StringComparison.Ordinal);
        Assert.Equal("one", context.Counters.FindById(id)!.Name);
    }

    /// <summary>The reused command moves between pooled connections and transactions, and survives refusals.</summary>
    [Fact]
    public async Task The_reused_insert_follows_each_call_connection_and_transaction()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        var first = CrudTests.NewOrder("A-1", "a@x");
        context.Orders.Insert(first);

        using (var transaction = context.BeginTransaction())
        {
            context.Orders.Insert(CrudTests.NewOrder("T-1", "t1@x"));
            Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Insert(CrudTests.NewOrder("dup", "d@x", first.Id)));
            context.Orders.Insert(CrudTests.NewOrder("T-2", "t2@x"));
            transaction.Rollback();
        }

        var unique = Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Insert(CrudTests.NewOrder("B-1", "a@x")));
        Assert.NotEqual(BLiteUniqueConstraintException.PrimaryIndexName, unique.IndexName);

        await using (var transaction = await context.BeginTransactionAsync())
        {
            await context.Orders.InsertAsync(CrudTests.NewOrder("T-3", "t3@x"));
            await context.Orders.InsertAsync(CrudTests.NewOrder("T-4", "t4@x"));
            await transaction.CommitAsync();
        }

        context.Orders.Insert(CrudTests.NewOrder("A-2", "a2@x"));

        Assert.Equal(["A-1", "A-2", "T-3", "T-4"], context.Orders.FindAll().Select(o => o.Number).Order(StringComparer.Ordinal));
    }
}
