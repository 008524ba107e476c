using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>SelectMany over an array member flattens in memory after the engine's filter, order and page.</summary>
public class SelectManyTests(LinqFixture fixture) : IClassFixture<LinqFixture>
{
    private readonly LinqFixture _fixture = fixture;

    [Fact]
    public void SelectMany_over_arrays_matches_linq_to_objects()
    {
        _fixture.AssertSameSequence(q => q.SelectMany(o => o.Tags));
        _fixture.AssertSameSequence(q => q.Where(o => o.Paid).OrderBy(o => o.Total).SelectMany(o => o.Lines).Select(l => new { l.Sku, l.Qty }));
        _fixture.AssertSameSequence(q => q.Take(20).SelectMany(o => o.Lines).Select(l => l.Price * l.Qty));
        _fixture.AssertSameSequence(q => q.SelectMany(o => o.Tags).Distinct());
        _fixture.AssertSameSequence(q => q.SelectMany(o => o.Lines).Skip(3).Take(5).Select(l => l.Sku));
        _fixture.AssertSameResult(q => q.SelectMany(o => o.Lines).Count());
        _fixture.AssertSameResult(q => q.SelectMany(o => o.Lines).Sum(l => l.Qty));
        _fixture.AssertSameResult(q => q.SelectMany(o => o.Tags).First());
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).SelectMany(o => o.Tags).FirstOrDefault());
        Assert.NotEmpty(_fixture.Query.SelectMany(o => o.Lines).ToList());
    }

    [Fact]
    public void SelectMany_with_a_result_selector_pairs_each_item_with_its_document()
    {
        _fixture.AssertSameSequence(q => q.SelectMany(o => o.Lines, (o, l) => new { o.Id, o.Status, l.Sku, Value = l.Qty * l.Price }));
        _fixture.AssertSameSequence(q => q.Where(o => o.Paid).OrderByDescending(o => o.Total).Take(30)
            .SelectMany(o => o.Tags, (o, t) => o.Customer.Name + ":" + t).Distinct());
        _fixture.AssertSameSequence(q => q.SelectMany(o => o.Lines, (o, l) => new { o.Id, l.Qty }).Skip(2).Take(9).Select(x => x.Id * 1000 + x.Qty));
        _fixture.AssertSameResult(q => q.SelectMany(o => o.Lines, (o, l) => l.Qty + o.Quantity).Sum());
        var threshold = 2;
        _fixture.AssertSameResult(q => q.SelectMany(o => o.Lines, (o, l) => new { o.Id, Big = l.Qty > threshold }).Count());
        Assert.NotEmpty(_fixture.Query.SelectMany(o => o.Lines, (o, l) => l.Sku).ToList());
    }

    [Fact]
    public async Task SelectMany_runs_through_the_async_terminals()
    {
        Assert.Equal(_fixture.Orders.SelectMany(o => o.Tags).ToList(), await _fixture.Query.SelectMany(o => o.Tags).ToListAsync());
        Assert.Equal(_fixture.Orders.SelectMany(o => o.Lines).Count(), await _fixture.Query.SelectMany(o => o.Lines).CountAsync());
    }

    [Fact]
    public void A_filter_after_SelectMany_is_refused_with_the_reason()
    {
        var error = Assert.Throws<NotSupportedException>(() => _fixture.Query.SelectMany(o => o.Lines).Where(l => l.Qty > 2).ToList());
        Assert.Contains("Where after GroupBy, Distinct or SelectMany is not supported", error.Message);
    }
}
