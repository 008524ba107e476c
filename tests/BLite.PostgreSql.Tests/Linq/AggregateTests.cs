using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;
using Npgsql;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// Terminal Sum and Average on both providers, each compared with LINQ to Objects: on PostgreSQL
/// the server totals the value (one row crosses the wire) and the LINQ layer applies LINQ's rules
/// to the totals; values LINQ would refuse fall back to streaming, so the error is the embedded one.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class AggregateTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Sum_and_average_of_every_numeric_type_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        var shipped = "shipped";
        linq.AssertSameResult(q => q.Sum(o => o.Quantity));
        linq.AssertSameResult(q => q.Sum(o => o.Big));
        linq.AssertSameResult(q => q.Sum(o => o.Score));
        linq.AssertSameResult(q => q.Sum(o => o.Total));
        linq.AssertSameResult(q => q.Sum(o => o.Discount));
        linq.AssertSameResult(q => q.Sum(o => (float)o.Score));
        linq.AssertSameResult(q => q.Average(o => o.Quantity));
        linq.AssertSameResult(q => q.Average(o => o.Big));
        linq.AssertSameResult(q => q.Average(o => o.Score));
        linq.AssertSameResult(q => q.Average(o => o.Total));
        linq.AssertSameResult(q => q.Average(o => o.Discount));
        linq.AssertSameResult(q => q.Where(o => o.Status == shipped).Sum(o => o.Total));
        linq.AssertSameResult(q => q.Where(o => o.Paid && o.Quantity > 2).Average(o => o.Score));
        linq.AssertSameResult(q => q.Select(o => o.Quantity).Sum());
        linq.AssertSameResult(q => q.Select(o => o.Total).Average());
        linq.AssertSameResult(q => q.Sum(o => o.Quantity * 2 + 1));
        linq.AssertSameResult(q => q.Average(o => o.Lines.Sum(l => l.Qty)));
        linq.AssertSameResult(q => q.OrderByDescending(o => o.Score).Take(7).Sum(o => o.Score));
        linq.AssertSameResult(q => q.OrderBy(o => o.Id).Skip(150).Average(o => o.Total));
        linq.AssertSameResult(q => q.Where(o => o.Status == "none").Sum(o => o.Quantity));
        linq.AssertSameResult(q => q.Where(o => o.Status == "none").Average(o => o.Discount));
        linq.AssertSameResult(q => q.Where(o => o.Status == "none").Sum(o => o.Total));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task The_async_aggregates_and_their_errors_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        Assert.Equal(linq.Orders.Sum(o => o.Big), await linq.Query.SumAsync(o => o.Big));
        Assert.Equal(linq.Orders.Average(o => o.Score), await linq.Query.AverageAsync(o => o.Score));
        Assert.Equal(linq.Orders.Where(o => o.Paid).Sum(o => o.Quantity), await linq.Query.Where(o => o.Paid).SumAsync(o => o.Quantity));

        var empty = await Assert.ThrowsAsync<InvalidOperationException>(() => linq.Query.Where(o => o.Status == "none").AverageAsync(o => o.Quantity));
        Assert.Equal("Sequence contains no elements", empty.Message);
        Assert.Throws<InvalidOperationException>(() => linq.Query.Where(o => o.Status == "none").Average(o => o.Total));
        Assert.Null(linq.Query.Where(o => o.Status == "none").Average(o => o.Discount));

        await using var transaction = await linq.Context.BeginTransactionAsync();
        linq.Context.Orders.Insert(new Order { Id = 10_000, Status = "late", Quantity = int.MaxValue, Total = 0.5m });
        Assert.Throws<OverflowException>(() => linq.Query.Where(o => o.Quantity > 0).Sum(o => o.Quantity));
        Assert.Equal((long)int.MaxValue + linq.Orders.Sum(o => (long)o.Quantity), linq.Query.Sum(o => (long)o.Quantity));
        Assert.Equal(0.5m, await linq.Query.Where(o => o.Status == "late").SumAsync(o => o.Total));
    }

    /// <summary>Doubles PostgreSQL could not add as .NET does (a partial sum past float8's range, NaN) give LINQ's infinity and NaN.</summary>
    [Theory]
    [MemberData(nameof(Providers))]
    public void Double_sums_that_overflow_or_hold_nan_give_linq_results(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider, count: 20);
        var extremes = new List<Order>
        {
            new() { Id = 1001, Status = "huge", Score = double.MaxValue },
            new() { Id = 1002, Status = "huge", Score = double.MaxValue },
            new() { Id = 1003, Status = "odd", Score = double.NaN },
            new() { Id = 1004, Status = "odd", Score = -0.0 },
        };
        linq.Context.Orders.InsertMany(extremes);
        linq.Orders.AddRange(extremes);

        Assert.Equal(double.PositiveInfinity, linq.Query.Where(o => o.Status == "huge").Sum(o => o.Score));
        Assert.True(double.IsNaN(linq.Query.Where(o => o.Status == "odd").Average(o => o.Score)));
        linq.AssertSameResult(q => q.Where(o => o.Status == "huge").Average(o => o.Score));
        linq.AssertSameResult(q => q.Where(o => o.Id == 1004).Sum(o => o.Score));
        Assert.False(double.IsNegative(linq.Query.Where(o => o.Id == 1004).Sum(o => o.Score)));
    }

    /// <summary>The statement PostgreSQL ran totals the value: no document and no per-row value is read.</summary>
    [Fact]
    public void On_postgresql_the_server_totals_the_value()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 50);
        using var statements = new NpgsqlStatements("linq_orders");

        Assert.Equal(linq.Orders.Where(o => o.Paid).Sum(o => o.Total), linq.Query.Where(o => o.Paid).Sum(o => o.Total));

        var statement = Assert.Single(statements.All);
        Assert.StartsWith("SELECT count(*), count(v), count(n), COALESCE(sum(n), 0)::text", statement, StringComparison.Ordinal);
    }

    /// <summary>Values LINQ would refuse are streamed, so the error names the field as the embedded engine's does.</summary>
    [Fact]
    public void A_value_of_the_wrong_type_fails_as_streaming_does()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 20);
        using (var connection = new NpgsqlConnection(linq.ConnectionString))
        {
            connection.Open();
            using var spoil = new NpgsqlCommand("UPDATE linq_orders SET doc = jsonb_set(doc, '{Quantity}', '\"seven\"') WHERE id = 7", connection);
            Assert.Equal(1, spoil.ExecuteNonQuery());
        }

        Assert.Equal(linq.Orders.Where(o => o.Id != 7).Sum(o => o.Quantity), linq.Query.Where(o => o.Id != 7).Sum(o => o.Quantity));
        var error = Assert.Throws<InvalidCastException>(() => linq.Query.Sum(o => o.Quantity));
        Assert.Equal("Cannot convert a value of type String to Int32.", error.Message);
    }
}
