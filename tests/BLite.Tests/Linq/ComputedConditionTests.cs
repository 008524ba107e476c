using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>
/// Conditions on values computed from stored fields (lengths, counts, date parts, case, arithmetic,
/// a second field), ordinal string.Compare, case-insensitive matching and null tests on a nullable
/// record struct: each runs in the engine and returns what LINQ to Objects returns.
/// </summary>
public class ComputedConditionTests(LinqFixture fixture) : IClassFixture<LinqFixture>
{
    private readonly LinqFixture _fixture = fixture;

    [Fact]
    public void String_Compare_and_CompareTo_against_zero_compare_ordinally()
    {
        var bound = "cara";
        _fixture.AssertSameIds(q => q.Where(o => string.Compare(o.Customer.Name, "bob") > 0));
        _fixture.AssertSameIds(q => q.Where(o => string.Compare(o.Customer.Name, bound) <= 0));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.CompareTo(bound) < 0));
        _fixture.AssertSameIds(q => q.Where(o => 0 < o.Customer.Name.CompareTo("anna")));
        _fixture.AssertSameIds(q => q.Where(o => string.CompareOrdinal(o.Status, "pending") == 0));
        _fixture.AssertSameIds(q => q.Where(o => string.Compare(o.Status, o.Customer.Name) >= 0));
        var filter = Assert.IsType<ComparisonFilter>(LastFilter(q => q.Where(o => string.Compare(o.Customer.Name, "bob") > 0)));
        Assert.Equal(ComparisonOperator.Gt, filter.Operator);
        Assert.IsType<ComparisonFilter>(LastFilter(q => q.Where(o => 0 < o.Customer.Name.CompareTo("anna"))));
    }

    [Fact]
    public void Nullable_record_struct_members_compare_with_null()
    {
        _fixture.AssertSameIds(q => q.Where(o => o.Location == null));
        _fixture.AssertSameIds(q => q.Where(o => o.Location != null));
        _fixture.AssertSameIds(q => q.Where(o => o.Location.HasValue && o.Quantity > 3));
        GeoPoint? none = null;
        _fixture.AssertSameIds(q => q.Where(o => o.Location == none));
        Assert.Contains(_fixture.Query, o => o.Location == null);
        Assert.Contains(_fixture.Query, o => o.Location != null);
    }

    [Fact]
    public void Case_insensitive_string_matches_agree_with_OrdinalIgnoreCase()
    {
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.StartsWith("AN", StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.EndsWith("A", StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Email.Contains("B@X", StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => o.Status.Equals("SHIPPED", StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => string.Equals(o.Note, "Eve", StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => string.Equals("Eve", o.Customer.Name, StringComparison.OrdinalIgnoreCase)));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.ToUpperInvariant() == "BOB"));
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.ToLower() != "bob"));
        var filter = LastFilter(q => q.Where(o => o.Customer.Name.StartsWith("AN", StringComparison.OrdinalIgnoreCase)));
        Assert.True(Assert.IsType<StringMatchFilter>(filter).IgnoreCase);
        Assert.Contains("$startsWithIgnoreCase", filter.ToString());
        Assert.NotEmpty(_fixture.Query.Where(o => o.Customer.Name.StartsWith("AN", StringComparison.OrdinalIgnoreCase)));
    }

    [Fact]
    public void Computed_members_of_stored_values_match_linq_to_objects()
    {
        var year = 2024;
        _fixture.AssertSameIds(q => q.Where(o => o.Customer.Name.Length > 3));
        _fixture.AssertSameIds(q => q.Where(o => o.Status.Length == 7));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Count >= 2));
        _fixture.AssertSameIds(q => q.Where(o => o.Tags.Count() == 1));
        _fixture.AssertSameIds(q => q.Where(o => o.PlacedAt.Month == 2));
        _fixture.AssertSameIds(q => q.Where(o => o.PlacedAt.Year == year && o.PlacedAt.Day < 10));
        _fixture.AssertSameIds(q => q.Where(o => o.PlacedAt.Date == new DateTime(2024, 1, 5, 0, 0, 0, DateTimeKind.Utc)));
        _fixture.AssertSameIds(q => q.Where(o => o.PlacedAt.Hour >= 20));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Any(l => l.Sku.Length == 3 && l.Qty * l.Price > 100)));
        Assert.IsType<ExpressionFilter>(LastFilter(q => q.Where(o => o.Lines.Count >= 2)));
    }

    [Fact]
    public void Arithmetic_and_field_to_field_comparisons_match_linq_to_objects()
    {
        var limit = 100m;
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity * o.Total > limit));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity + 1 > 3));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity % 3 == 1));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity / 2 == 2));
        _fixture.AssertSameIds(q => q.Where(o => o.Score * 2 - 1 < o.Quantity));
        _fixture.AssertSameIds(q => q.Where(o => o.Big - o.Quantity > 50));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity == o.Discount));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity > o.Discount));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount * 2 >= 20));
        _fixture.AssertSameIds(q => q.Where(o => o.Discount + 1 == null));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity > o.Lines.Count));
        _fixture.AssertSameIds(q => q.Where(o => o.Status + "!" == "shipped!"));
        _fixture.AssertSameIds(q => q.Where(o => o.Quantity != 5 && o.Score / (o.Quantity - 5) > 0.5));
        var filter = LastFilter(q => q.Where(o => o.Quantity > o.Discount));
        Assert.Equal("{ \"$expr\": \"$quantity $gt $discount\" }", filter.ToString());
        Assert.Contains("COLLSCAN", _fixture.Query.Where(o => o.Quantity > o.Discount).Explain());
    }

    [Fact]
    public void Sums_and_nullable_aggregates_over_an_array_member_filter_in_the_engine()
    {
        var threshold = 4;
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Sum(l => l.Qty) > threshold));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Sum(l => l.Qty * l.Price) > o.Total / 2));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Sum(l => l.Qty * threshold - 1) > 10));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Max(l => (int?)l.Qty) >= 3));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Average(l => (decimal?)l.Price) < 50m || o.Lines.Sum(l => l.Qty) == 0));
        Assert.Contains(_fixture.Orders, o => o.Lines.Count == 0);
        var filter = LastFilter(q => q.Where(o => o.Lines.Sum(l => l.Qty) > 4));
        Assert.Equal("{ \"$expr\": \"$sum($lines, $qty) $gt @p0\" }", filter.ToString());

        // C# throws for the Min of no items when the selector is not nullable; a filter cannot, so it is refused.
        var error = Assert.Throws<NotSupportedException>(() => _fixture.Query.Where(o => o.Lines.Min(l => l.Qty) > 1).ToList());
        Assert.Contains("o.Lines.Min(l => l.Qty)", error.Message);
    }

    [Fact]
    public void Counts_of_array_items_with_a_condition_filter_in_the_engine()
    {
        var big = 3;
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Count(l => l.Qty >= big) >= 2));
        _fixture.AssertSameIds(q => q.Where(o => o.Lines.Count(l => l.Sku.StartsWith("ab") || l.Price > 40) == 1));
        Assert.Contains(_fixture.Orders, o => o.Lines.Count(l => l.Qty >= big) >= 2);
        Assert.Equal("{ \"$expr\": \"$count($lines, { 'qty': { '$gte': @p0 } }) $gte @p1\" }",
            LastFilter(q => q.Where(o => o.Lines.Count(l => l.Qty >= big) >= 2)).ToString());

        // The item condition reads the outer document: no raw-items form, refused naming the call.
        var error = Assert.Throws<NotSupportedException>(() => _fixture.Query.Where(o => o.Lines.Count(l => l.Qty > o.Quantity) > 0).ToList());
        Assert.Contains("o.Lines.Count(l => (l.Qty > o.Quantity))", error.Message);
    }

    private QueryFilter LastFilter(Func<IQueryable<Order>, IQueryable<Order>> build)
    {
        _ = build(_fixture.Query).ToList();
        return _fixture.Source.Executed[^1].Filter!;
    }
}
