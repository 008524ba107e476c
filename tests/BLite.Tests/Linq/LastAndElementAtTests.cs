using BLite.Core.Query;

namespace BLite.Tests.Linq;

/// <summary>Last / LastOrDefault run as the first row of the reversed order; ElementAt as Skip then the first row.</summary>
public class LastAndElementAtTests(LinqFixture fixture) : IClassFixture<LinqFixture>
{
    private readonly LinqFixture _fixture = fixture;

    [Fact]
    public void Last_matches_linq_to_objects_with_ties_empty_results_and_windows()
    {
        _fixture.AssertSameResult(q => q.Last().Id);
        _fixture.AssertSameResult(q => q.OrderBy(o => o.Quantity).Last().Id);
        _fixture.AssertSameResult(q => q.OrderByDescending(o => o.Status).ThenBy(o => o.Quantity).Last(o => o.Paid).Id);
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).LastOrDefault()?.Id);
        _fixture.AssertSameResult(q => q.Where(o => o.Quantity > 100).Last());
        _fixture.AssertSameResult(q => q.OrderBy(o => o.Total).Skip(5).Take(10).Last().Id);
        _fixture.AssertSameResult(q => q.OrderBy(o => o.PlacedAt).Select(o => new { o.Id, o.Total }).LastOrDefault()?.Id);
        _fixture.AssertSameResult(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count() }).Last());

        _ = _fixture.Query.OrderBy(o => o.Quantity).Last();
        var query = _fixture.Source.Executed[^1];
        Assert.Equal([("quantity", true), ("_id", true)], query.Sort.Select(k => (k.Path.Path, k.Descending)));
    }

    [Fact]
    public void ElementAt_matches_linq_to_objects_and_refuses_out_of_range_indexes()
    {
        var index = 17;
        _fixture.AssertSameResult(q => q.ElementAt(index).Id);
        _fixture.AssertSameResult(q => q.OrderBy(o => o.Total).ThenBy(o => o.Id).ElementAt(3).Id);
        _fixture.AssertSameResult(q => q.Select(o => o.Status).Distinct().ElementAt(2));
        _fixture.AssertSameResult(q => q.Where(o => o.Paid).Skip(2).ElementAtOrDefault(4)?.Id);
        _fixture.AssertSameResult(q => q.ElementAtOrDefault(100_000)?.Id);
        _fixture.AssertSameResult(q => q.ElementAtOrDefault(-1)?.Id);
        Assert.Throws<ArgumentOutOfRangeException>(() => _fixture.Query.ElementAt(100_000));
        Assert.Throws<ArgumentOutOfRangeException>(() => _fixture.Query.ElementAt(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => _fixture.Query.Select(o => o.Kind).Distinct().ElementAt(3));
    }
}
