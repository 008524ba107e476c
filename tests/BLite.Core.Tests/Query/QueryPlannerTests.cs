using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

public class QueryPlannerTests
{
    private static readonly IndexDescriptor[] Indexes =
    [
        IndexDescriptor.PrimaryKey,
        new("idx_status", ["status"]),
        new("idx_status_placedAt", ["status", "placedAt"]),
        new("idx_email", ["customer.email"], unique: true),
        new("idx_tags", ["tags"], multiKey: true),
        new("idx_total", ["total"]),
        new("idx_sku", ["lines.sku"], multiKey: true),
        new("idx_name", ["name"]),
        new("idx_placedAt", ["placedAt"]),
        new("idx_nick", ["nick"], sparse: true),
    ];

    public static TheoryData<string, string, int?, string, string, bool> Cases => new()
    {
        // filter, sort ("field" / "-field"), take, expected index, strategy, residual expected
        { """{ "_id": 5 }""", "", null, "_id", nameof(PlanStrategy.UniqueEquality), false },
        { """{ "customer.email": "a@b.c", "status": "shipped" }""", "", null, "idx_email", nameof(PlanStrategy.UniqueEquality), true },
        { """{ "status": "shipped" }""", "", null, "idx_status", nameof(PlanStrategy.Equality), false },
        { """{ "status": "shipped", "placedAt": { "$gt": { "$date": "2024-01-01T00:00:00Z" } } }""", "", null, "idx_status_placedAt", nameof(PlanStrategy.Equality), true },
        { """{ "status": { "$in": ["shipped", "pending"] } }""", "", null, "idx_status", nameof(PlanStrategy.In), false },
        { """{ "$or": [ { "status": "shipped" }, { "status": "pending" } ] }""", "", null, "idx_status", nameof(PlanStrategy.In), false },
        { """{ "total": { "$gt": 5, "$lt": 10 } }""", "", null, "idx_total", nameof(PlanStrategy.Range), true },
        { """{ "total": { "$gte": 5 } }""", "", null, "idx_total", nameof(PlanStrategy.Range), true },
        { """{ "_id": { "$gte": 5 } }""", "", null, "_id", nameof(PlanStrategy.Range), true },
        { """{ "name": { "$startsWith": "Jo" } }""", "", null, "idx_name", nameof(PlanStrategy.Prefix), true },
        { """{ "tags": "blue" }""", "", null, "idx_tags", nameof(PlanStrategy.Equality), true },
        { """{ "lines": { "$elemMatch": { "sku": "A-1", "qty": { "$gt": 1 } } } }""", "", null, "idx_sku", nameof(PlanStrategy.Equality), true },
        { """{}""", "-placedAt", 10, "idx_placedAt", nameof(PlanStrategy.Order), false },
        { """{ "status": "shipped" }""", "-placedAt", 10, "idx_status_placedAt", nameof(PlanStrategy.Equality), false },
        { """{ "total": { "$gt": 5 } }""", "placedAt", 10, "idx_placedAt", nameof(PlanStrategy.Order), true },
        { """{ "total": { "$gt": 5 } }""", "placedAt", null, "idx_total", nameof(PlanStrategy.Range), true },
        { """{}""", "placedAt", null, "", nameof(PlanStrategy.FullScan), false },
        { """{ "status": { "$ne": "shipped" } }""", "", null, "", nameof(PlanStrategy.FullScan), true },
        { """{ "status": null }""", "", null, "", nameof(PlanStrategy.FullScan), true },
        { """{ "$or": [ { "status": "shipped" }, { "total": 5 } ] }""", "", null, "", nameof(PlanStrategy.FullScan), true },
        { """{ "$not": { "status": "shipped" } }""", "", null, "", nameof(PlanStrategy.FullScan), true },
        { """{}""", "nick", 5, "", nameof(PlanStrategy.FullScan), false },
        { """{ "nick": { "$gt": "m" } }""", "nick", 5, "idx_nick", nameof(PlanStrategy.Range), true },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Chooses_the_expected_access_path(string filter, string sort, int? take, string index, string strategy, bool hasResidual)
    {
        var plan = QueryPlanner.Plan(Query(filter, sort, take), Indexes);
        Assert.True(index == (plan.Index?.Name ?? ""), plan.Explain());
        Assert.True(strategy == plan.Strategy.ToString(), plan.Explain());
        Assert.True(hasResidual == (plan.Residual is not null), plan.Explain());
    }

    [Theory]
    [InlineData("""{ "status": "shipped" }""", "-placedAt", 10, false, true)]
    [InlineData("""{}""", "placedAt", 10, false, false)]
    [InlineData("""{ "total": { "$gt": 5 } }""", "placedAt", null, true, false)]
    [InlineData("""{ "status": "shipped" }""", "status,-placedAt", 10, false, true)]
    [InlineData("""{ "status": "shipped" }""", "placedAt,-status", 10, false, false)]
    public void Uses_index_order_for_sorting_when_the_keys_line_up(string filter, string sort, int? take, bool needsSort, bool descending)
    {
        var plan = QueryPlanner.Plan(Query(filter, sort, take), Indexes);
        Assert.True(needsSort == plan.NeedsSort, plan.Explain());
        Assert.True(descending == plan.Descending, plan.Explain());
    }

    [Fact]
    public void A_multikey_index_never_serves_order_and_requires_deduplication()
    {
        var plan = QueryPlanner.Plan(Query("""{ "tags": { "$gt": "a" } }""", "tags", 5), Indexes);
        Assert.Equal("idx_tags", plan.Index?.Name);
        Assert.True(plan.NeedsSort);
        Assert.True(plan.NeedsDeduplication);
    }

    [Fact]
    public void A_multikey_range_uses_one_side_only()
    {
        var plan = QueryPlanner.Plan(Query("""{ "tags": { "$gt": "a", "$lt": "m" } }""", "", null), Indexes);
        var bound = Assert.Single(plan.Bounds);
        Assert.NotNull(bound.Lower);
        Assert.Null(bound.Upper);
    }

    [Fact]
    public void The_tightest_constant_bound_wins()
    {
        var plan = QueryPlanner.Plan(Query("""{ "$and": [ { "total": { "$gt": 5 } }, { "total": { "$gte": 7 } }, { "total": { "$lt": 20 } }, { "total": { "$lte": 9 } } ] }""", "", null), Indexes);
        var bound = Assert.Single(plan.Bounds);
        Assert.Equal(7, bound.Lower!.Value.Constant.AsInt32);
        Assert.True(bound.LowerInclusive);
        Assert.Equal(9, bound.Upper!.Value.Constant.AsInt32);
        Assert.True(bound.UpperInclusive);
    }

    [Fact]
    public void In_values_resolve_to_sorted_distinct_point_ranges()
    {
        var plan = QueryPlanner.Plan(Query("""{ "status": { "$in": ["b", "a", "b", "c"] } }""", "", null), Indexes);
        Assert.True(plan.TryResolveRanges(null, out var ranges));
        Assert.Equal(["a", "b", "c"], ranges.Select(r => r.Prefix[0].AsString));
        Assert.All(ranges, r => Assert.True(r.IsPoint));
    }

    [Fact]
    public void A_descending_scan_lists_ranges_in_descending_order()
    {
        var query = new DocumentQuery(JsonFilterParser.Parse("""{ "status": { "$in": ["a", "b"] } }"""), [new SortKey("status", descending: true)], take: FilterOperand.FromConstant(5));
        var plan = QueryPlanner.Plan(query, [new IndexDescriptor("idx", ["status"])]);
        Assert.True(plan.TryResolveRanges(null, out var ranges));
        Assert.Equal(["b", "a"], ranges.Select(r => r.Prefix[0].AsString));
    }

    [Fact]
    public void Parameter_bounds_resolve_per_execution_and_refuse_null()
    {
        var query = new DocumentQuery(QueryFilter.And(
            QueryFilter.Eq("status", FilterOperand.FromParameter(0)),
            QueryFilter.Gte("placedAt", FilterOperand.FromParameter(1))));
        var plan = QueryPlanner.Plan(query, Indexes);
        Assert.Equal("idx_status_placedAt", plan.Index?.Name);

        var from = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        Assert.True(plan.TryResolveRanges(["shipped", from], out var ranges));
        var range = Assert.Single(ranges);
        Assert.Equal("shipped", range.Prefix[0].AsString);
        Assert.Equal(from, range.Lower!.Value.Value.AsDateTime);
        Assert.Null(range.Upper);

        Assert.False(plan.TryResolveRanges([BsonValue.Null, from], out _));
        var fallback = plan.AsFullScan();
        Assert.True(fallback.IsFullScan);
        Assert.Same(query.Filter, fallback.Residual);
    }

    [Theory]
    [InlineData("Jo", "Jp")]
    [InlineData("a\uFFFF", "b")]
    [InlineData("\uFFFF", null)]
    public void A_prefix_becomes_a_half_open_string_range(string prefix, string? successor)
    {
        var plan = QueryPlanner.Plan(new DocumentQuery(QueryFilter.StartsWith("name", prefix)), Indexes);
        Assert.True(plan.TryResolveRanges(null, out var ranges));
        var range = Assert.Single(ranges);
        Assert.Equal(prefix, range.Lower!.Value.Value.AsString);
        Assert.Equal(successor, range.Upper?.Value.AsString);
    }

    [Fact]
    public void Contradictory_bounds_resolve_to_no_range()
    {
        var plan = QueryPlanner.Plan(Query("""{ "total": { "$gt": 10, "$lt": 5 } }""", "", null), Indexes);
        Assert.True(plan.TryResolveRanges(null, out var ranges));
        Assert.Empty(ranges);
    }

    [Fact]
    public void Explain_names_index_bounds_residual_and_sort()
    {
        var plan = QueryPlanner.Plan(Query("""{ "status": "shipped", "total": { "$gt": 100 } }""", "-placedAt", 10), Indexes);
        var text = plan.Explain();
        Assert.StartsWith("IXSCAN idx_status_placedAt (status, placedAt) [equality]", text);
        Assert.Contains("bounds: status = \"shipped\"", text);
        Assert.Contains("direction: backward", text);
        Assert.Contains("residual: { \"total\": { \"$gt\": 100 } }", text);
        Assert.Contains("sort: none (index order)", text);
        Assert.Contains("take: 10", text);
    }

    internal static DocumentQuery Query(string filter, string sort, int? take) => new(
        JsonFilterParser.Parse(filter),
        sort.Length == 0 ? [] : sort.Split(',').Select(s => new SortKey(s.TrimStart('-'), s.StartsWith('-'))).ToList(),
        take: take is { } t ? FilterOperand.FromConstant(t) : null);
}
