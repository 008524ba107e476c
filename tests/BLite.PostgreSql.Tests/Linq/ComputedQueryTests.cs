using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;
using Npgsql;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// The LINQ layer's computed conditions, projections and aggregates (its ComputedConditionTests
/// and ProjectionPushDownTests) on both providers, each compared with LINQ to Objects. On
/// PostgreSQL conditions and projected values are computed by the server.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class ComputedQueryTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Computed_members_arithmetic_and_field_to_field_conditions_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        var year = 2024;
        var limit = 100m;
        linq.AssertSameIds(q => q.Where(o => o.Customer.Name.Length > 3));
        linq.AssertSameIds(q => q.Where(o => o.Status.Length == 7));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Count >= 2));
        linq.AssertSameIds(q => q.Where(o => o.Tags.Count() == 1));
        linq.AssertSameIds(q => q.Where(o => o.PlacedAt.Month == 2));
        linq.AssertSameIds(q => q.Where(o => o.PlacedAt.Year == year && o.PlacedAt.Day < 10));
        linq.AssertSameIds(q => q.Where(o => o.PlacedAt.Date == new DateTime(2024, 1, 5, 0, 0, 0, DateTimeKind.Utc)));
        linq.AssertSameIds(q => q.Where(o => o.PlacedAt.Hour >= 20 && o.PlacedAt.DayOfYear > 30));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Any(l => l.Sku.Length == 3 && l.Qty * l.Price > 100)));
        linq.AssertSameIds(q => q.Where(o => o.Quantity * o.Total > limit));
        linq.AssertSameIds(q => q.Where(o => o.Quantity + 1 > 3));
        linq.AssertSameIds(q => q.Where(o => o.Quantity % 3 == 1));
        linq.AssertSameIds(q => q.Where(o => o.Quantity / 2 == 2));
        linq.AssertSameIds(q => q.Where(o => o.Score * 2 - 1 < o.Quantity));
        linq.AssertSameIds(q => q.Where(o => o.Big - o.Quantity > 50));
        linq.AssertSameIds(q => q.Where(o => o.Quantity == o.Discount));
        linq.AssertSameIds(q => q.Where(o => o.Quantity > o.Discount));
        linq.AssertSameIds(q => q.Where(o => !(o.Quantity > o.Discount)));
        linq.AssertSameIds(q => q.Where(o => o.Discount * 2 >= 20));
        linq.AssertSameIds(q => q.Where(o => o.Discount + 1 == null));
        linq.AssertSameIds(q => q.Where(o => o.Quantity > o.Lines.Count));
        linq.AssertSameIds(q => q.Where(o => o.Status + "!" == "shipped!"));
        linq.AssertSameIds(q => q.Where(o => o.Quantity != 5 && o.Score / (o.Quantity - 5) > 0.5));
        linq.AssertSameIds(q => q.Where(o => o.Total / 3 > 40 && o.Quantity / 4 * 4 == o.Quantity));
        linq.AssertSameIds(q => q.Where(o => string.Compare(o.Status, o.Customer.Name) >= 0));
        linq.AssertSameIds(q => q.Where(o => o.Customer.Name.ToUpperInvariant() == "BOB" || o.Customer.Name.ToLower() == "eve"));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Sum(l => l.Qty) > 4));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Sum(l => l.Qty * l.Price) > o.Total / 2));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Max(l => (int?)l.Qty) >= 3));
        linq.AssertSameIds(q => q.Where(o => o.Lines.Average(l => (decimal?)l.Price) < 20m || o.Lines.Sum(l => l.Qty) == 0));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Projections_and_aggregates_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        linq.AssertSameSequence(q => q.Where(o => o.Status == "shipped").Select(o => new { o.Id, o.Status, o.Total, Name = o.Customer.Name }));
        linq.AssertSameSequence(q => q.OrderBy(o => o.Total).ThenBy(o => o.Id).Select(o => new { o.Id, o.Note, o.Discount, o.Kind, o.PlacedAt, o.Big, o.Score, o.Paid }));
        linq.AssertSameSequence(q => q.Select(o => new { o.Id, Gross = o.Total * 1.2m, D = o.Discount ?? 0, Size = o.Quantity > 5 ? "big" : "small" }));
        linq.AssertSameSequence(q => q.Select(o => o.Customer.Name + "/" + o.Status));
        linq.AssertSameSequence(q => q.Select(o => new { o.Id, Lines = o.Lines.Count, Tags = o.Tags.Count(), Name = o.Customer.Name.Length, o.PlacedAt.Month, o.PlacedAt.Date }));
        linq.AssertSameSequence(q => q.Select(o => new
        {
            o.Id,
            Quantity = o.Lines.Sum(l => l.Qty),
            Value = o.Lines.Sum(l => l.Qty * l.Price),
            Dearest = o.Lines.Max(l => (decimal?)l.Price),
            Cheapest = o.Lines.Min(l => (int?)l.Qty),
            Mean = o.Lines.Average(l => (double?)l.Qty),
            MeanPrice = o.Lines.Average(l => (decimal?)l.Price),
        }));
        linq.AssertSameSequence(q => q.Where(o => o.Lines.Count > 0)
            .Select(o => new { Min = o.Lines.Min(l => l.Price), Max = o.Lines.Max(l => (long)l.Qty), Avg = o.Lines.Average(l => l.Qty), Big = o.Lines.Sum(l => (double)l.Qty) }));
        linq.AssertSameSequence(q => q.Select(o => new { o.Id, Half = o.Quantity / 2.0, Rest = o.Quantity % 4, Wide = o.Big * 3 }));
        linq.AssertSameResult(q => q.Sum(o => o.Total));
        linq.AssertSameResult(q => q.Where(o => o.Paid).Average(o => o.Score));
        linq.AssertSameResult(q => q.Select(o => o.Quantity).Max());
        linq.AssertSameResult(q => q.Min(o => o.Discount));
        linq.AssertSameResult(q => q.Sum(o => o.Lines.Sum(l => l.Qty)));
        linq.AssertSameResult(q => q.Max(o => o.PlacedAt));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Status)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total), Paid = g.Count(o => o.Paid), Max = g.Max(o => o.Quantity) }));
        linq.AssertSameSequence(q => q.Select(o => o.Status).Distinct());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task Async_projections_and_aggregates_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        Assert.Equal(linq.Orders.Where(o => o.Paid).Select(o => new { o.Id, o.Total }).ToList(), await linq.Query.Where(o => o.Paid).Select(o => new { o.Id, o.Total }).ToListAsync());
        Assert.Equal(linq.Orders.Sum(o => o.Quantity), await linq.Query.SumAsync(o => o.Quantity));
        await using var transaction = await linq.Context.BeginTransactionAsync();
        Assert.Equal(linq.Orders.Select(o => o.Lines.Count).ToList(), await linq.Query.Select(o => o.Lines.Count).ToListAsync());
        Assert.Equal(linq.Orders.Max(o => o.Total), linq.Query.Max(o => o.Total));
    }

    /// <summary>
    /// Proof that PostgreSQL computes the projection: a row whose other fields the mapper cannot
    /// read still projects, while materializing it fails.
    /// </summary>
    [Fact]
    public void A_projection_on_PostgreSQL_never_deserializes_the_document()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 20);
        using (var connection = new NpgsqlConnection(linq.ConnectionString))
        {
            connection.Open();
            using var spoil = new NpgsqlCommand("UPDATE linq_orders SET doc = jsonb_set(doc, '{Quantity}', '\"not a number\"') WHERE id = 7", connection);
            Assert.Equal(1, spoil.ExecuteNonQuery());
        }

        var expected = linq.Orders.Where(o => o.Id <= 10).Select(o => new { o.Id, o.Status, Lines = o.Lines.Count, Value = o.Lines.Sum(l => l.Qty * l.Price) }).ToList();
        Assert.Equal(expected, linq.Query.Where(o => o.Id <= 10).Select(o => new { o.Id, o.Status, Lines = o.Lines.Count, Value = o.Lines.Sum(l => l.Qty * l.Price) }).ToList());
        Assert.Equal(linq.Orders.Sum(o => o.Total), linq.Query.Sum(o => o.Total));
        var error = Assert.Throws<BLite.Bson.Mapping.BsonMappingException>(() => linq.Query.Where(o => o.Id == 7).ToList());
        Assert.Contains("Order.Quantity", error.Message, StringComparison.Ordinal);
    }
}
