using BLite.Linq;
using BLite.Tests.Model;

namespace BLite.Tests.Query;

/// <summary>LINQ through a real context, with and without indexes, against LINQ to Objects.</summary>
public sealed class ContextQueryTests : IDisposable
{
    private readonly List<CustomerOrder> _orders = Orders.Many(200);
    private readonly ShopContext _indexed = new(DocumentDbContextOptions.ForMemory());
    private readonly PlainShopContext _plain = new(DocumentDbContextOptions.ForMemory());

    public ContextQueryTests()
    {
        _indexed.Orders.InsertMany(_orders);
        _plain.Orders.InsertMany(_orders.Select(o => Orders.Create(int.Parse(o.OrderNumber[4..]), o.Id)));
    }

    public void Dispose()
    {
        _indexed.Dispose();
        _plain.Dispose();
    }

    public static TheoryData<string> Shapes => new(QueryShapes.Names);

    [Theory]
    [MemberData(nameof(Shapes))]
    public void Results_equal_LINQ_to_objects_with_and_without_indexes(string shape)
    {
        var query = QueryShapes.Get(shape);
        var expected = query(_orders.AsQueryable()).ToList();

        Assert.Equal(expected, query(_indexed.Orders.Query()).ToList());
        Assert.Equal(expected, query(_plain.Orders.Query()).ToList());
    }

    [Fact]
    public void A_lookup_by_id_through_LINQ_reads_one_document_and_honours_skip_take_and_other_conditions()
    {
        var order = _orders[17];
        var id = order.Id;
        var orders = _indexed.Orders.Query();

        Assert.Equal(order.OrderNumber, orders.Where(o => o.Id == id).Select(o => o.OrderNumber).First());
        Assert.Equal(new { order.Status, order.Total }, orders.Where(o => o.Id == id).Select(o => new { o.Status, o.Total }).Single());
        Assert.Empty(orders.Where(o => o.Id == id).Skip(1).ToList());
        Assert.Empty(orders.Where(o => o.Id == id).Take(0).ToList());
        Assert.Empty(orders.Where(o => o.Id == id && o.Status != order.Status).ToList());
        Assert.Empty(orders.Where(o => o.Id == ObjectId.NewObjectId()).ToList());
        Assert.Equal([order.OrderNumber], orders.Where(o => o.Id == id && o.Total == order.Total).Select(o => o.OrderNumber).ToList());
    }

    [Fact]
    public void Count_over_an_indexed_equality_counts_index_entries_and_equals_LINQ_to_objects()
    {
        foreach (var status in new[] { "shipped", "pending", "none" })
        {
            var query = _indexed.Orders.Query().Where(o => o.Status == status);
            Assert.Contains("count: index entries only", query.Explain(), StringComparison.Ordinal);
            Assert.Equal(_orders.Count(o => o.Status == status), query.Count());
            Assert.Equal(_orders.Count(o => o.Status == status), _plain.Orders.Query().Count(o => o.Status == status));
        }

        var statuses = new[] { "shipped", "delivered" };
        Assert.Equal(_orders.LongCount(o => statuses.Contains(o.Status)), _indexed.Orders.Query().LongCount(o => statuses.Contains(o.Status)));
        Assert.Equal(Math.Min(7, _orders.Count(o => o.Status == "shipped") - 3), _indexed.Orders.Query().Where(o => o.Status == "shipped").Skip(3).Take(7).Count());
    }

    [Fact]
    public async Task Async_terminals_run_through_the_context()
    {
        var shipped = _orders.Where(o => o.Status == "shipped").OrderBy(o => o.PlacedAt).Select(o => o.OrderNumber).ToList();

        Assert.Equal(shipped, await _indexed.Orders.Query().Where(o => o.Status == "shipped").OrderBy(o => o.PlacedAt).Select(o => o.OrderNumber).ToListAsync());
        Assert.Equal(shipped.Count, await _indexed.Orders.Query().CountAsync(o => o.Status == "shipped"));
        Assert.Equal(_orders.Max(o => o.Total), await _indexed.Orders.Query().MaxAsync(o => o.Total));
    }

    [Fact]
    public void Explain_names_the_index_the_planner_picks()
    {
        var byEmail = _indexed.Orders.Query().Where(o => o.Customer.Email == "c5@example.com").Explain();
        var byStatusAndDate = _indexed.Orders.Query().Where(o => o.Status == "shipped" && o.PlacedAt > new DateTime(2026, 2, 1, 0, 0, 0, DateTimeKind.Utc)).Explain();
        var plain = _plain.Orders.Query().Where(o => o.Customer.Email == "c5@example.com").Explain();

        Assert.Contains("ix_Customer.email", byEmail);
        Assert.Contains("ix_Status_PlacedAt", byStatusAndDate);
        Assert.DoesNotContain("ix_", plain);
    }

    [Fact]
    public void Field_names_follow_the_mapping_renames()
    {
        var explained = _indexed.Orders.Query().Where(o => o.Customer.Email == "x").Explain();

        Assert.Contains("Customer.email", explained);
        Assert.DoesNotContain("Customer.Email", explained);
    }

    [Fact]
    public void An_untranslatable_predicate_throws_NotSupportedException_instead_of_running_in_memory()
    {
        Assert.Throws<NotSupportedException>(() => _indexed.Orders.Find(o => o.OrderNumber.GetHashCode() == 3).ToList());
        Assert.Throws<NotSupportedException>(() => _indexed.Orders.Query().Where(o => IsSpecial(o)).ToList());
    }

    private static bool IsSpecial(CustomerOrder order) => order.Total > 1;
}

/// <summary>Query shapes run side by side on LINQ to Objects and on BLite.</summary>
internal static class QueryShapes
{
    private static readonly List<string> PendingOrDelivered = ["pending", "delivered"];

    private static readonly DateTime February = new(2026, 2, 1, 0, 0, 0, DateTimeKind.Utc);

    private static readonly Dictionary<string, Func<IQueryable<CustomerOrder>, IQueryable<string>>> All = new()
    {
        ["equality on an indexed field"] = q => q.Where(o => o.Status == "shipped").OrderBy(o => o.OrderNumber).Select(o => o.OrderNumber),
        ["unique lookup through a renamed nested field"] = q => q.Where(o => o.Customer.Email == "c17@example.com").Select(o => o.OrderNumber),
        ["composite equality and range"] = q => q.Where(o => o.Status == "pending" && o.PlacedAt >= February).OrderBy(o => o.PlacedAt).Select(o => o.OrderNumber),
        ["range with order and paging"] = q => q.Where(o => o.Total > 200m && o.Total <= 1500m).OrderByDescending(o => o.Total).Skip(3).Take(10).Select(o => o.OrderNumber),
        ["multikey through a collection"] = q => q.Where(o => o.Lines.Any(l => l.Sku == "SKU-4")).OrderBy(o => o.OrderNumber).Select(o => o.OrderNumber),
        ["in list"] = q => q.Where(o => PendingOrDelivered.Contains(o.Status)).OrderBy(o => o.OrderNumber).Select(o => o.OrderNumber),
        ["or across fields"] = q => q.Where(o => o.Status == "confirmed" || o.Total < 30m).OrderBy(o => o.OrderNumber).Select(o => o.OrderNumber),
        ["string prefix"] = q => q.Where(o => o.OrderNumber.StartsWith("ORD-001")).OrderBy(o => o.OrderNumber).Select(o => o.OrderNumber),
        ["negation and array contains"] = q => q.Where(o => o.Status != "shipped" && o.Tags.Contains("even")).OrderBy(o => o.PlacedAt).Select(o => o.OrderNumber),
        ["order by two keys then take"] = q => q.OrderBy(o => o.Status).ThenByDescending(o => o.PlacedAt).Take(15).Select(o => o.OrderNumber),
        ["no match"] = q => q.Where(o => o.Status == "lost").Select(o => o.OrderNumber),
    };

    public static IEnumerable<string> Names => All.Keys;

    public static Func<IQueryable<CustomerOrder>, IQueryable<string>> Get(string name) => All[name];
}
