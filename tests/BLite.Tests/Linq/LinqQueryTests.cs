using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Tests.Linq;

public class LinqQueryTests(LinqFixture fixture) : IClassFixture<LinqFixture>
{
    private readonly LinqFixture _fixture = fixture;

    [Fact]
    public void Where_comparisons_on_every_scalar_type_match_linq_to_objects()
    {
        var quantity = 5;
        var total = 120.5m;
        var score = 4.2;
        var big = 50L;
        var when = new DateTime(2024, 2, 1, 0, 0, 0, DateTimeKind.Utc);
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity > quantity));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity <= 3 || o.Quantity == 11));
        _fixture.AssertSameIds(q => q.Where(o => o.Total >= total && o.Score < score));
        _fixture.AssertSameIds(q => q.Where(o => o.Big > big));
        _fixture.AssertSameIds(q => q.Where(o => o.PlacedAt >= when));
        _fixture.AssertSameIds(q => q.Where(o => 5 < o.Quantity));
        _fixture.AssertSameIds(q => q.Where(o => o.Id == 17));
        _fixture.AssertSameIds(q => q.Where(o => o.Paid));
        _fixture.AssertSameIds(q => q.Where(o => !o.Paid));
        _fixture.AssertSameIds(q => q.Where(o => !(o.Quantity > 3) && o.Status != "shipped"));
    }

    [Fact]
    public void Enums_nullables_and_null_checks_match_linq_to_objects()
    {
        var kind = OrderKind.Wholesale;
        int? noDiscount = null;
        _fixture.AssertSameIds(q => q.Where(o => o.Kind == kind));
        _fixture.AssertSameIds(q => q.Where(o => o.Kind != OrderKind.Retail));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount == null));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount != null && o.Discount > 10));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount.HasValue));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount == noDiscount));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount != null && o.Discount.Value < 5));
        _fixture.AssertSameIds(q => q.Where(o => o.Note == null || o.Note != "ann"));
    }

    [Fact]
    public void Nested_paths_renamed_fields_and_string_methods_match_linq_to_objects()
    {
        var prefix = "an";
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.StartsWith(prefix)));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.EndsWith("a")));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.Contains("o")));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Email == "bob@x.io"));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.StartsWith("b", StringComparison.Ordinal)));
        _fixture.AssertSameIds(q => q.Where(o => string.IsNullOrEmpty(o.Note)));
        _fixture.AssertSameIds(q => q.Where(o => o.Status.Equals("pending")));
    }

    [Fact]
    public void Contains_and_Any_on_lists_and_arrays_match_linq_to_objects()
    {
        var statuses = new List<string> { "shipped", "pending" };
        var kinds = new[] { OrderKind.Internal, OrderKind.Retail };
        var ids = new HashSet<int> { 3, 5, 8, 400 };
        _fixture.AssertSameIds(q => q.Where(o => statuses.Contains(o.Status)));
        _fixture.AssertSameIds(q => q.Where(o => kinds.Contains(o.Kind)));
        _fixture.AssertSameIds(q => q.Where(o => ids.Contains(o.Id)));
        _fixture.AssertSameIds(q => q.Where(o => o.Tags.Contains("gift")));
        _fixture.AssertSameIds(q => q.Where(o => o.Tags.Any(t => t == "red")));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Any()));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Any(l => l.Qty > 3 && l.Sku == "abc")));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.All(l => l.Price > 10)));
    }

    [Fact]
    public void Ordering_paging_and_terminals_match_linq_to_objects()
    {
        _fixture.AssertSameIds(q => q.OrderBy(o => o.Quantity).ThenByDescending(o => o.Total));
        _fixture.AssertSameIds(q => q.OrderByDescending(o => o.PlacedAt).Skip(10).Take(15));
        _fixture.AssertSameIds(q => q.OrderBy(o => o.Status).ThenBy(o => o.Customer.Name).ThenBy(o => o.Id));
        _fixture.AssertSameIds(q => q.OrderBy(o => o.Quantity).OrderBy(o => o.Status));
        _fixture.AssertSameIds(q => q.OrderBy(o => o.Score).Take(20).Skip(5));
        _fixture.AssertSameIds(q => q.OrderBy(o => o.Score).Skip(3).Take(10).Skip(2).Take(4));
        _fixture.AssertSameIds(q => q.Where(o => o.Paid).OrderBy(o => o.Discount).Take(30));
        _fixture.AssertSameResult(q => q.Count(o => o.Quantity > 4));
        _fixture.AssertSameResult(q => q.LongCount());
        _fixture.AssertSameResult(q => q.Where(o => o.Paid).Any());
        _fixture.AssertSameResult(q => q.Any(o => o.Quantity > 100));
        _fixture.AssertSameResult(q => q.All(o => o.Quantity >= 0));
        _fixture.AssertSameResult(q => q.All(o => o.Quantity > 3));
        _fixture.AssertSameResult(q => q.OrderBy(o => o.Total).First().Id);
        _fixture.AssertSameResult(q => q.FirstOrDefault(o => o.Quantity > 100));
        _fixture.AssertSameResult(q => q.Single(o => o.Id == 42).Id);
        _fixture.AssertSameResult(q => q.SingleOrDefault(o => o.Id == 4200));
        _fixture.AssertSameResult(q => q.Single(o => o.Quantity == 3));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).First());
        _fixture.AssertSameResult(q => q.Skip(5).Count());
    }

    [Fact]
    public void Aggregates_match_linq_to_objects_including_empty_inputs()
    {
        _fixture.AssertSameResult(q => q.Sum(o => o.Total));
        _fixture.AssertSameResult(q => q.Where(o => o.Paid).Sum(o => o.Quantity));
        _fixture.AssertSameResult(q => q.Average(o => o.Quantity));
        _fixture.AssertSameResult(q => q.Average(o => o.Total));
        _fixture.AssertSameResult(q => q.Min(o => o.PlacedAt));
        _fixture.AssertSameResult(q => q.Max(o => o.Customer.Name));
        _fixture.AssertSameResult(q => q.Max(o => o.Discount));
        _fixture.AssertSameResult(q => q.Select(o => o.Score).Max());
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Sum(o => o.Total));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Min(o => o.Quantity));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Average(o => o.Discount));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Max(o => o.Note));
    }

    [Fact]
    public void Select_projections_match_linq_to_objects()
    {
        var factor = 2;
        _fixture.AssertSameSequence(q => q.Where(o => o.Paid).Select(o => new { o.Id, o.Customer.Name, Double = o.Quantity * factor }));
        _fixture.AssertSameSequence(q => q.OrderBy(o => o.Id).Select(o => o.Customer.Email.ToUpperInvariant()).Take(10));
        _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Count = o.Lines.Count, Sum = o.Lines.Sum(l => l.Price * l.Qty) }));
        _fixture.AssertSameSequence(q => q.Select(o => o.Discount ?? -1));
        _fixture.AssertSameSequence(q => q.Select(o => o.Quantity > 5 ? "many" : "few"));
        _fixture.AssertSameSequence(q => q.Select(o => new Line { Sku = o.Status, Qty = o.Quantity, Price = o.Total }).Select(l => l.Sku + ":" + l.Qty));
        _fixture.AssertSameSequence(q => q.Select(o => new[] { o.Quantity, o.Id }).Select(a => a[0] + a[1]));
        _fixture.AssertSameSequence(q => q.Select(o => (double)o.Total / 3 + o.Score));
    }

    [Fact]
    public void GroupBy_with_aggregate_projections_matches_linq_to_objects()
    {
        _fixture.AssertSameSequence(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total) }));
        _fixture.AssertSameSequence(q => q.Where(o => o.Paid).GroupBy(o => new { o.Kind, o.Quantity }).Select(g => new { g.Key.Kind, g.Key.Quantity, Max = g.Max(o => o.Score) }));
        _fixture.AssertSameSequence(q => q.GroupBy(o => o.Discount).Select(g => new { g.Key, Average = g.Average(o => o.Quantity), Paid = g.Count(o => o.Paid) }).Skip(1).Take(3));
        _fixture.AssertSameResult(q => q.GroupBy(o => o.Kind).Count());
    }

    [Fact]
    public async Task Async_terminals_match_their_synchronous_counterparts()
    {
        var query = _fixture.Query.Where(o => o.Quantity > 4).OrderBy(o => o.Total);
        var expected = _fixture.Expected.Where(o => o.Quantity > 4).OrderBy(o => o.Total).Select(o => o.Id).ToList();

        Assert.Equal(expected, (await query.ToListAsync()).Select(o => o.Id));
        Assert.Equal(expected.Count, await query.CountAsync());
        Assert.Equal(expected.Count, await _fixture.Query.CountAsync(o => o.Quantity > 4));
        Assert.Equal(expected[0], (await query.FirstOrDefaultAsync())!.Id);
        Assert.Null(await query.FirstOrDefaultAsync(o => o.Quantity > 100));
        Assert.True(await query.AnyAsync());
        Assert.Equal(_fixture.Orders.Sum(o => o.Total), await _fixture.Query.SumAsync(o => o.Total));
        Assert.Equal(_fixture.Orders.Max(o => o.PlacedAt), await _fixture.Query.MaxAsync(o => o.PlacedAt));

        var streamed = new List<int>();
        await foreach (var order in query.AsAsyncEnumerable())
        {
            streamed.Add(order.Id);
        }

        Assert.Equal(expected, streamed);
        var groups = await _fixture.Query.GroupBy(o => o.Kind).Select(g => new { g.Key, N = g.Count() }).ToListAsync();
        Assert.Equal(_fixture.Orders.GroupBy(o => o.Kind).Select(g => new { g.Key, N = g.Count() }), groups);
    }

    [Fact]
    public async Task Async_terminals_refuse_queries_that_are_not_blite_queries()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => _fixture.Expected.CountAsync());
        Assert.Contains("not a BLite query", error.Message);
    }

    [Fact]
    public void The_engine_receives_the_filter_order_and_page()
    {
        var minimum = 3;
        _ = _fixture.Query.Where(o => o.Quantity > minimum && o.Customer.Email == "x").OrderByDescending(o => o.PlacedAt).Skip(2).Take(5).ToList();
        var query = _fixture.Source.Executed[^1];
        Assert.Equal("""{ "$and": [ { "quantity": { "$gt": @p0 } }, { "customer.mail": { "$eq": @p1 } } ] }""", query.Filter!.ToString());
        Assert.Equal("placedAt desc", Assert.Single(query.Sort).ToString());
        Assert.NotNull(query.Skip);
        Assert.NotNull(query.Take);
    }

    [Fact]
    public void Explain_shows_the_plan_for_a_linq_query()
    {
        var source = new InMemoryQuerySource(_fixture.Orders)
        {
            Indexes = [IndexDescriptor.PrimaryKey, new IndexDescriptor("idx_status", ["status"])],
        };
        var query = BLiteQuery.Create(source).Where(o => o.Status == "shipped");
        Assert.StartsWith("IXSCAN idx_status (status) [equality]", query.Explain());
    }
}
