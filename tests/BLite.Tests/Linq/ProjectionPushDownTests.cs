using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Tests.Linq;

public sealed record OrderSummary(int Id, string Status, decimal Total);

public sealed class OrderCard
{
    public int Id { get; init; }

    public string? Name { get; init; }

    public int? Discount { get; init; }

    public override bool Equals(object? obj) => obj is OrderCard other && Id == other.Id && Name == other.Name && Discount == other.Discount;

    public override int GetHashCode() => HashCode.Combine(Id, Name, Discount);
}

/// <summary>
/// Projections and aggregates that read only stored scalar fields run over those fields read from
/// the raw bytes: the results equal LINQ to Objects, no document is materialized, and Explain names
/// the fields read.
/// </summary>
public class ProjectionPushDownTests
{
    private readonly LinqFixture _fixture = new(77, 200);

    private void AssertPushedDown(Action run, params string[] fields)
    {
        var before = _fixture.Source.Materialized;
        var projections = _fixture.Source.Projected.Count;
        run();
        Assert.Equal(before, _fixture.Source.Materialized);
        Assert.Equal(projections + 1, _fixture.Source.Projected.Count);
        Assert.Equal(fields, _fixture.Source.Projected[^1].Select(FieldProjection.Describe));
    }

    [Fact]
    public void Anonymous_type_with_a_nested_path_reads_only_its_fields()
    {
        AssertPushedDown(
            () => _fixture.AssertSameSequence(q => q.Where(o => o.Status == "shipped").Select(o => new { o.Id, o.Status, o.Total, Name = o.Customer.Name })),
            "_id", "status", "total", "customer.name");
        var explain = _fixture.Query.Where(o => o.Status == "shipped").Select(o => new { o.Id, o.Total, City = o.Customer.Email }).Explain();
        Assert.Contains("fields read: _id, total, customer.mail (no document materialized)", explain);
    }

    [Fact]
    public void Records_object_initializers_and_single_members_are_pushed_down()
    {
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.OrderBy(o => o.Total).Select(o => new OrderSummary(o.Id, o.Status, o.Total))),
            "_id", "status", "total");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new OrderCard { Id = o.Id, Name = o.Note, Discount = o.Discount })),
            "_id", "note", "discount");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Quantity > 5).Select(o => o.Total)), "total");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.Kind)), "kind");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.PlacedAt).Skip(3).Take(7)), "placedAt");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id == 17).Select(o => new { o.Status, o.Total }).First()), "status", "total");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id == 1000).Select(o => o.Status).FirstOrDefault()), "status");
    }

    [Fact]
    public void Computations_read_the_fields_they_use()
    {
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Gross = o.Total * 1.2m, D = o.Discount ?? 0, Big = o.Quantity > 5 ? "big" : "small" })),
            "_id", "total", "discount", "quantity");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.Customer.Name + "/" + o.Status)), "customer.name", "status");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.Discount.HasValue ? o.Discount.Value : -1)), "discount");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Lines = o.Lines.Count, Tags = o.Tags.Count(), Name = o.Customer.Name.Length, o.PlacedAt.Month })),
            "_id", "$count($lines)", "$count($tags)", "$length($customer.name)", "$month($placedAt)");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Sum(o => o.Lines.Count)), "$count($lines)");
    }

    [Fact]
    public void Aggregates_over_an_array_member_read_its_raw_items()
    {
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new
            {
                o.Id,
                Quantity = o.Lines.Sum(l => l.Qty),
                Value = o.Lines.Sum(l => l.Qty * l.Price),
                Dearest = o.Lines.Max(l => (decimal?)l.Price),
                Cheapest = o.Lines.Min(l => (int?)l.Qty),
                Mean = o.Lines.Average(l => (double?)l.Qty),
                MeanPrice = o.Lines.Average(l => (decimal?)l.Price),
            })),
            "_id", "$sum($lines, $qty)", "$sum($lines, ($qty * $price))", "$max($lines, $price)", "$min($lines, $qty)",
            "$average($lines, $qty)", "$average($lines, $price)");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Lines.Count > 0)
            .Select(o => new { Min = o.Lines.Min(l => l.Price), Max = o.Lines.Max(l => (long)l.Qty), Avg = o.Lines.Average(l => l.Qty), Big = o.Lines.Sum(l => (double)l.Qty) })),
            "$min($lines, $price)", "$max($lines, $qty)", "$average($lines, $qty)", "$sum($lines, $qty)");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Sum(o => o.Lines.Sum(l => l.Qty))), "$sum($lines, $qty)");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.GroupBy(o => o.Status)
            .Select(g => new { g.Key, Items = g.Sum(o => o.Lines.Sum(l => l.Qty)), Top = g.Max(o => o.Lines.Max(l => (decimal?)l.Price)) })),
            "status", "$sum($lines, $qty)", "$max($lines, $price)");
        var explain = _fixture.Query.Select(o => new { o.Id, Quantity = o.Lines.Sum(l => l.Qty) }).Explain();
        Assert.Contains("fields read: _id, $sum($lines, $qty) (no document materialized)", explain);
    }

    [Fact]
    public void Literals_and_captured_values_in_an_array_aggregate_are_bound_per_execution()
    {
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.Lines.Sum(l => l.Qty * 0.5))), "$sum($lines, ($qty * @p0))");
        foreach (var rate in new[] { 2m, 3.5m })
        {
            AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Cost = o.Lines.Sum(l => l.Price * rate), Top = o.Lines.Max(l => (decimal?)l.Price + rate) })),
                "_id", "$sum($lines, ($price * @p0))", "$max($lines, ($price + @p1))");
        }

        var minimum = 3;
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Lines.Sum(l => l.Qty - minimum) > 0).Select(o => o.Lines.Sum(l => l.Qty - minimum))),
            "$sum($lines, ($qty - @p2))");
    }

    [Fact]
    public void Count_with_a_condition_over_an_array_counts_its_raw_items()
    {
        Assert.Contains(_fixture.Orders, o => o.Lines.Count(l => l.Qty > 2) is > 0 and var n && n < o.Lines.Count);
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Big = o.Lines.Count(l => l.Qty > 2), Cheap = o.Lines.Count(l => l.Price < 10) })),
            "_id", "$count($lines, { 'qty': { '$gt': @p0 } })", "$count($lines, { 'price': { '$lt': @p1 } })");
        var projections = _fixture.Source.Projected.Count;
        _fixture.AssertSameSequence(q => q.Select(o => o.Lines.Count(l => l.Sku.StartsWith("ab") && l.Price >= 10)));
        Assert.StartsWith("$count($lines, { '$and'", FieldProjection.Describe(Assert.Single(_fixture.Source.Projected[projections])));
        var threshold = 4;
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Big = g.Sum(o => o.Lines.Count(l => l.Qty >= threshold)) })),
            "status", "$count($lines, { 'qty': { '$gte': @p0 } })");
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Count(l => l.Qty > 3) >= 1 && o.Lines.Count(l => l.Sku == "sku") == 0));
    }

    [Fact]
    public void Aggregates_without_a_selector_over_an_array_of_numbers_read_its_raw_items()
    {
        Assert.Contains(_fixture.Orders, o => o.Ratings.Count == 0);
        Assert.Contains(_fixture.Orders, o => o.Ratings.Any(r => r < 0));
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Sum = o.Ratings.Sum() })), "_id", "$sum($ratings, $)");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Sum(o => o.Ratings.Sum())), "$sum($ratings, $)");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Ratings.Count > 0).Select(o => new { Min = o.Ratings.Min(), Max = o.Ratings.Max(), Mean = o.Ratings.Average() })),
            "$min($ratings, $)", "$max($ratings, $)", "$average($ratings, $)");
        _fixture.AssertSameIds(q => q.Where(o => o.Ratings.Sum() > 5));
    }

    [Fact]
    public void An_aggregate_of_an_empty_array_follows_LINQ_to_Objects()
    {
        Assert.Contains(_fixture.Orders, o => o.Lines.Count == 0);
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Lines.Min(l => l.Qty)).ToList().Count), "$min($lines, $qty)");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Lines.Average(l => l.Price)).ToList().Count), "$average($lines, $price)");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Lines.Count == 0).Select(o => new { S = o.Lines.Sum(l => l.Price), M = o.Lines.Max(l => (int?)l.Qty) })),
            "$sum($lines, $price)", "$max($lines, $qty)");
    }

    [Fact]
    public void Aggregates_and_groups_run_over_raw_fields()
    {
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Sum(o => o.Total)), "total");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Paid).Average(o => o.Score)), "score");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Quantity).Max()), "quantity");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Min(o => o.Discount)), "discount");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id > 10_000).Average(o => o.Quantity)), "quantity");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.GroupBy(o => o.Status)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total), Paid = g.Count(o => o.Paid), Max = g.Max(o => o.Quantity) })), "status", "total", "paid", "quantity");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.GroupBy(o => o.Customer.Name).Select(g => g.Key)), "customer.name");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.GroupBy(o => o.Status).Select(g => g.Sum(o => o.Quantity)).Max()), "status", "quantity");
    }

    [Fact]
    public void Terminal_aggregates_without_a_selector_run_over_the_selected_member()
    {
        Assert.Contains(_fixture.Orders, o => o.Discount is null);
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Total).Sum()), "total");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Paid).Select(o => o.Quantity).Sum()), "quantity");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Discount).Sum()), "discount");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Score).Average()), "score");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Discount).Average()), "discount");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Big).Min()), "big");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Customer.Name).Min()), "customer.name");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Discount).Max()), "discount");

        // Over no rows: Sum is zero, a nullable Average or Min is null, a non-nullable Average throws.
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id < 0).Select(o => o.Total).Sum()), "total");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id < 0).Select(o => o.Discount).Average()), "discount");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id < 0).Select(o => o.Discount).Min()), "discount");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Id < 0).Select(o => o.Score).Average()), "score");
    }

    [Fact]
    public async Task Async_projections_are_pushed_down_too()
    {
        var expected = _fixture.Orders.Where(o => o.Paid).Select(o => new { o.Id, o.Total }).ToList();
        var before = _fixture.Source.Materialized;
        Assert.Equal(expected, await _fixture.Query.Where(o => o.Paid).Select(o => new { o.Id, o.Total }).ToListAsync());
        Assert.Equal(_fixture.Orders.Sum(o => o.Quantity), await _fixture.Query.SumAsync(o => o.Quantity));
        Assert.Equal(before, _fixture.Source.Materialized);
    }

    [Fact]
    public void A_null_read_as_a_non_nullable_value_throws_as_LINQ_to_Objects_does() =>
        _fixture.AssertSameResult(q => q.Select(o => o.Discount!.Value).ToList().Count);

    [Fact]
    public void Projections_needing_whole_objects_or_lists_still_materialize()
    {
        var before = _fixture.Source.Materialized;
        var projections = _fixture.Source.Projected.Count;
        _fixture.AssertSameSequence(q => q.Select(o => new { o.Id, Big = o.Lines.Any(l => l.Qty > 2) }));
        _fixture.AssertSameSequence(q => q.Select(o => o.Customer.Name + o.Computed));
        _fixture.AssertSameResult(q => q.GroupBy(o => o.Status).Select(g => g.First().Id).ToList().Count);
        Assert.Equal(projections, _fixture.Source.Projected.Count);
        Assert.True(_fixture.Source.Materialized > before);
        Assert.DoesNotContain("fields read", _fixture.Query.Select(o => new { o.Id, o.Lines }).Explain());
    }

    [Fact]
    public async Task Distinct_after_a_projection_runs_over_the_projected_values()
    {
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Select(o => o.Status).Distinct()), "status");
        AssertPushedDown(() => _fixture.AssertSameSequence(q => q.Where(o => o.Quantity > 2).Select(o => new { o.Kind, o.Paid }).Distinct().Skip(1).Take(3)), "kind", "paid");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Customer.Name).Distinct().Count()), "customer.name");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Where(o => o.Status == "shipped").Select(o => o.Status).Distinct().Single()), "status");
        AssertPushedDown(() => _fixture.AssertSameResult(q => q.Select(o => o.Paid).Distinct().Single()), "paid");
        _fixture.AssertSameSequence(q => q.Select(o => o.Status).Distinct().Select(s => s.Length));
        Assert.Equal(_fixture.Orders.Select(o => o.Status).Distinct().ToList(), await _fixture.Query.Select(o => o.Status).Distinct().ToListAsync());
        Assert.Equal(_fixture.Orders.Select(o => o.Kind).Distinct().Count(), await _fixture.Query.Select(o => o.Kind).Distinct().CountAsync());
    }

    [Fact]
    public void Min_and_Max_of_a_stored_path_read_the_first_non_null_value_in_index_order()
    {
        _fixture.AssertSameResult(q => q.Max(o => o.Total));
        _fixture.AssertSameResult(q => q.Min(o => o.Discount));
        _fixture.AssertSameResult(q => q.Max(o => o.Discount));
        _fixture.AssertSameResult(q => q.Select(o => o.PlacedAt).Max());
        _fixture.AssertSameResult(q => q.Where(o => o.Paid).Min(o => o.Customer.Name));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Min(o => o.Quantity));
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Max(o => o.Discount));
        _fixture.AssertSameResult(q => q.Where(o => o.Discount == null).Max(o => o.Discount));
        _fixture.AssertSameResult(q => q.Max(o => o.Quantity * 2));

        var source = new InMemoryQuerySource(_fixture.Orders)
        {
            Indexes = [IndexDescriptor.PrimaryKey, new IndexDescriptor("quantity_1", [FieldPath.Parse("quantity")])],
        };
        Assert.Equal(_fixture.Orders.Max(o => o.Quantity), BLiteQuery.Create(source).Max(o => o.Quantity));
        var plan = QueryPlanner.Plan(source.Executed[^1], source.Indexes).Explain();
        Assert.StartsWith("IXSCAN quantity_1", plan);
        Assert.Contains("direction: backward", plan);
        Assert.Contains(", take: @", plan);
        var sort = Assert.Single(source.Executed[^1].Sort);
        Assert.Equal(("quantity", true), (sort.Path.Path, sort.Descending));
    }
}
