using BLite.Bson;
using BLite.Linq;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// Differential LINQ tests: each query runs on the provider and, as LINQ to Objects, on the same
/// documents in memory; both must return the same documents in the same order. One class, both providers.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class QueryTests(PostgresCluster cluster)
{
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Filters_match_the_in_memory_results(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var orders = Seed(context);
        var shipped = "shipped";
        var low = 20m;
        var numbers = new[] { "N-3", "N-17", "none" };

        AssertSame(orders, context, q => q.Where(o => o.Status == shipped));
        AssertSame(orders, context, q => q.Where(o => o.Status != "pending"));
        AssertSame(orders, context, q => q.Where(o => o.Total > low && o.Total <= 40.5m));
        AssertSame(orders, context, q => q.Where(o => o.Weight >= 2.5 || o.Sequence < 5));
        AssertSame(orders, context, q => q.Where(o => o.PlacedAt >= new DateTime(2024, 1, 10, 0, 0, 0, DateTimeKind.Utc)));
        AssertSame(orders, context, q => q.Where(o => o.Customer.Email == "c7@x"));
        AssertSame(orders, context, q => q.Where(o => o.Customer.Name.StartsWith("Ann 1")));
        AssertSame(orders, context, q => q.Where(o => o.Customer.Name.EndsWith("3") || o.Customer.Name.Contains("n 4")));
        AssertSame(orders, context, q => q.Where(o => o.Lines.Any(l => l.Sku == "sku-5" && l.Quantity > 1)));
        AssertSame(orders, context, q => q.Where(o => o.Tags.Contains("rush")));
        AssertSame(orders, context, q => q.Where(o => numbers.Contains(o.Number) || o.Number == "N-2"));
        AssertSame(orders, context, q => q.Where(o => o.Note == null));
        AssertSame(orders, context, q => q.Where(o => o.Note != null));
        AssertSame(orders, context, q => q.Where(o => o.Priority > 1));
        AssertSame(orders, context, q => q.Where(o => !(o.Priority == 2) && o.Status == "confirmed"));
        AssertSame(orders, context, q => q.Where(o => o.Id == orders[3].Id));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Ordering_paging_and_terminals_match_the_in_memory_results(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var orders = Seed(context);

        AssertSame(orders, context, q => q.OrderBy(o => o.Total).ThenByDescending(o => o.Number));
        AssertSame(orders, context, q => q.Where(o => o.Status == "shipped").OrderByDescending(o => o.PlacedAt).Skip(2).Take(3));
        AssertSame(orders, context, q => q.OrderBy(o => o.Priority).ThenBy(o => o.Number).Skip(5));
        AssertSame(orders, context, q => q.OrderBy(o => o.Customer.Name).Take(4));
        var query = context.Orders.Query();
        Assert.Equal(orders.Count(o => o.Status == "delivered"), query.Count(o => o.Status == "delivered"));
        Assert.Equal(orders.LongCount(o => o.Total > 30m), query.LongCount(o => o.Total > 30m));
        Assert.True(query.Any(o => o.Tags.Contains("gift")));
        Assert.False(query.Any(o => o.Status == "lost"));
        Assert.Equal(orders.OrderBy(o => o.Total).First().Number, query.OrderBy(o => o.Total).First().Number);
        Assert.Equal(orders.Where(o => o.Status == "pending").Sum(o => o.Total), query.Where(o => o.Status == "pending").Sum(o => o.Total));
        Assert.Equal(orders.Max(o => o.PlacedAt), query.Max(o => o.PlacedAt));
        Assert.Equal(
            orders.Where(o => o.Priority == 1).OrderBy(o => o.Number).Select(o => new { o.Number, Doubled = o.Total * 2 }).ToList(),
            query.Where(o => o.Priority == 1).OrderBy(o => o.Number).Select(o => new { o.Number, Doubled = o.Total * 2 }).ToList());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task Async_queries_and_queries_inside_a_transaction_see_the_same_documents(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        await using var context = new ProviderContext(database.Options());
        var orders = Seed(context);
        var expected = orders.Where(o => o.Status == "confirmed").Select(o => o.Number).Order(StringComparer.Ordinal).ToList();

        var streamed = new List<string>();
        await foreach (var order in context.Orders.FindAsync(o => o.Status == "confirmed"))
        {
            streamed.Add(order.Number);
        }

        Assert.Equal(expected, streamed.Order(StringComparer.Ordinal));
        await using var transaction = await context.BeginTransactionAsync();
        await context.Orders.InsertAsync(CrudTestsOrder("N-new", "confirmed"));
        Assert.Equal(expected.Count + 1, await context.Orders.Query().Where(o => o.Status == "confirmed").CountAsync());
        Assert.Equal(expected.Count + 1, context.Orders.Find(o => o.Status == "confirmed").Count());
        Assert.Equal(expected.Count + 1, await context.Orders.DeleteManyAsync(o => o.Status == "confirmed"));
        await transaction.CommitAsync();
        Assert.Equal(0, context.Orders.Count(o => o.Status == "confirmed"));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_unique_index_refuses_a_duplicate_value_and_keeps_the_transaction_usable(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var first = CrudTestsOrder("A", "pending");
        context.Orders.Insert(first);

        using var transaction = context.BeginTransaction();
        var clash = CrudTestsOrder("B", "pending");
        clash.Customer.Email = first.Customer.Email;
        var error = Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Insert(clash));
        var second = CrudTestsOrder("C", "pending");
        context.Orders.Insert(second);
        second.Customer.Email = first.Customer.Email;
        Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Update(second));
        transaction.Commit();

        Assert.NotEqual(BLiteUniqueConstraintException.PrimaryIndexName, error.IndexName);
        Assert.Equal("\"" + first.Customer.Email + "\"", error.DuplicateValue);
        Assert.Contains(first.Customer.Email, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("redacted", error.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(2, context.Orders.Count());
        Assert.Equal("C@x", context.Orders.FindById(second.Id)!.Customer.Email);
    }

    [Fact]
    public void Explain_returns_PostgreSQLs_plan_and_an_equality_on_an_indexed_field_uses_its_index()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        var orders = new List<Order>();
        for (var i = 0; i < 3000; i++)
        {
            orders.Add(CrudTestsOrder("N-" + i, i % 100 == 0 ? "lost" : "pending"));
        }

        context.Orders.InsertMany(orders);
        using (var connection = new Npgsql.NpgsqlConnection(database.ConnectionString))
        {
            connection.Open();
            using var analyze = new Npgsql.NpgsqlCommand("ANALYZE orders", connection);
            analyze.ExecuteNonQuery();
        }

        var plan = context.Orders.Query().Where(o => o.Status == "lost").Explain();

        Assert.Contains("orders_ix_Status", plan, StringComparison.Ordinal);
        Assert.Equal(30, context.Orders.Count(o => o.Status == "lost"));
    }

    private static Order CrudTestsOrder(string number, string status) => new()
    {
        Number = number,
        Status = status,
        Total = 1m,
        Customer = new Contact { Name = "Z " + number, Email = number + "@x" },
    };

    private static void AssertSame(List<Order> orders, ProviderContext context, Func<IQueryable<Order>, IQueryable<Order>> build)
    {
        var expected = build(orders.AsQueryable()).Select(o => o.Number).ToList();
        var actual = build(context.Orders.Query()).Select(o => o.Number).ToList();
        Assert.NotEmpty(expected);
        Assert.Equal(expected, actual);
    }

    /// <summary>Orders in id order (ids ascending), so LINQ to Objects' stable sorts break ties as the providers do.</summary>
    private static List<Order> Seed(ProviderContext context)
    {
        var random = new Random(21);
        var orders = new List<Order>();
        for (var i = 0; i < 60; i++)
        {
            orders.Add(new Order
            {
                Id = ObjectId.Create(1_700_000_000 + (uint)i, 0, 0),
                Number = "N-" + i,
                Status = Statuses[i % 4],
                Total = Math.Round((decimal)(random.NextDouble() * 50), 2),
                PlacedAt = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(i * 7),
                Customer = new Contact { Name = "Ann " + i, Email = "c" + i + "@x" },
                Lines = [new Line { Sku = "sku-" + (i % 9), Quantity = 1 + (i % 3) }, new Line { Sku = "sku-" + ((i + 4) % 9), Quantity = 1 }],
                Tags = i % 5 == 0 ? ["rush", "gift"] : i % 3 == 0 ? ["gift"] : [],
                Note = i % 4 == 1 ? null : "note " + i,
                Priority = i % 6 == 0 ? null : i % 3,
                Weight = i * 0.25,
                Sequence = i,
            });
        }

        context.Orders.InsertMany(orders);
        return orders;
    }
}
