using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// <c>GroupBy(key).Select(g => ...)</c> on both providers, each compared with LINQ to Objects over
/// the same documents: on PostgreSQL the server forms the groups with one <c>GROUP BY</c> and the
/// LINQ layer applies LINQ's rules to each group's totals; groups whose values LINQ would refuse,
/// or whose running sums could overflow where the total does not, are grouped from the values, so
/// the result or error is the embedded one.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class GroupByTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Keys_counts_sums_averages_and_extremes_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        var shipped = "shipped";
        linq.AssertSameSequence(q => q.GroupBy(o => o.Status).Select(g => new
        {
            g.Key,
            Count = g.Count(),
            Long = g.LongCount(),
            Total = g.Sum(o => o.Total),
            Quantity = g.Sum(o => o.Quantity),
            Big = g.Sum(o => o.Big),
            Score = g.Sum(o => o.Score),
            Discount = g.Sum(o => o.Discount),
        }));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Kind).Select(g => new
        {
            g.Key,
            AverageTotal = g.Average(o => o.Total),
            AverageQuantity = g.Average(o => o.Quantity),
            AverageBig = g.Average(o => o.Big),
            AverageScore = g.Average(o => o.Score),
            AverageDiscount = g.Average(o => o.Discount),
        }));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Paid).Select(g => new
        {
            g.Key,
            MinTotal = g.Min(o => o.Total),
            MaxTotal = g.Max(o => o.Total),
            MinScore = g.Min(o => o.Score),
            MaxQuantity = g.Max(o => o.Quantity),
            MinNote = g.Min(o => o.Note),
            MaxNote = g.Max(o => o.Note),
            MinDiscount = g.Min(o => o.Discount),
            First = g.Min(o => o.PlacedAt),
            Last = g.Max(o => o.PlacedAt),
            MaxStatus = g.Max(o => o.Status),
        }));

        // A filter, an order and a page before the grouping; groups come in order of their first document
        // (without an OrderBy that is the order the source returns, which an index may decide).
        linq.AssertSameSequence(q => q.Where(o => o.Status != shipped && o.Quantity > 2).OrderBy(o => o.Id).GroupBy(o => o.Customer.Name)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total) }));
        linq.AssertSameSequence(q => q.OrderByDescending(o => o.Score).Skip(10).Take(60).GroupBy(o => o.Status)
            .Select(g => new { g.Key, Count = g.Count(), Score = g.Sum(o => o.Score) }));
        linq.AssertSameSequence(q => q.OrderBy(o => o.PlacedAt).GroupBy(o => o.Kind).Select(g => g.Key));

        // Null keys form one group; computed keys; computations around the aggregates; paging and counting after.
        linq.AssertSameSequence(q => q.GroupBy(o => o.Note).Select(g => new { g.Key, Count = g.Count(), Max = g.Max(o => o.Discount) }));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Discount).Select(g => new { g.Key, Count = g.Count() }));
        linq.AssertSameSequence(q => q.GroupBy(o => o.PlacedAt.Month).Select(g => new { Month = g.Key, Mean = g.Sum(o => o.Total) / g.Count() }));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Lines.Count).Select(g => g.Key * 10 + g.Count()));
        linq.AssertSameSequence(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count() }).Skip(1).Take(2));
        linq.AssertSameResult(q => q.GroupBy(o => o.Kind).Select(g => g.Sum(o => o.Quantity)).Count());
        linq.AssertSameResult(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total) }).First());

        // Empty input: no group.
        linq.AssertSameSequence(q => q.Where(o => o.Status == "none").GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count() }));

        // Shapes the server does not total still run as before (values read by the server, grouped in memory).
        linq.AssertSameSequence(q => q.GroupBy(o => o.Status).Select(g => new { g.Key, Paid = g.Count(o => o.Paid), Twice = g.Sum(o => o.Quantity * 2) }));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task Async_grouping_matches_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        var expected = linq.Orders.GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total), Max = g.Max(o => o.Score) }).ToList();
        Assert.Equal(expected, await linq.Query.GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total), Max = g.Max(o => o.Score) }).ToListAsync());
        Assert.Equal(expected[0], await linq.Query.GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total), Max = g.Max(o => o.Score) }).FirstAsync());
        var streamed = new List<string>();
        await foreach (var key in linq.Query.GroupBy(o => o.Status).Select(g => g.Key).AsAsyncEnumerable())
        {
            streamed.Add(key);
        }

        Assert.Equal(expected.Select(g => g.Key), streamed);
    }

    /// <summary>LINQ adds in order and checks each step: a running sum that leaves int's range throws even when the total would fit.</summary>
    [Theory]
    [MemberData(nameof(Providers))]
    public void Overflow_and_special_values_behave_as_linq(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider, count: 20);
        var extremes = new List<Order>
        {
            new() { Id = 1001, Status = "huge", Quantity = int.MaxValue, Big = long.MaxValue, Total = 1.50m, Score = -0.0 },
            new() { Id = 1002, Status = "huge", Quantity = 1, Big = 1, Total = 1.5m, Score = 0.0 },
            new() { Id = 1003, Status = "swing", Quantity = int.MaxValue, Total = 2.5m, Score = double.MaxValue },
            new() { Id = 1004, Status = "swing", Quantity = 1, Total = 2.50m, Score = double.MaxValue },
            new() { Id = 1005, Status = "swing", Quantity = -5, Total = 1.5m, Score = double.NaN },
        };
        linq.Context.Orders.InsertMany(extremes);
        linq.Orders.AddRange(extremes);

        var huge = linq.Query.Where(o => o.Status == "huge");
        Assert.Throws<OverflowException>(() => huge.GroupBy(o => o.Status).Select(g => g.Sum(o => o.Quantity)).ToList());
        Assert.Throws<OverflowException>(() => huge.GroupBy(o => o.Status).Select(g => g.Sum(o => o.Big)).ToList());
        Assert.Equal([(long)int.MaxValue + 1], huge.GroupBy(o => o.Status).Select(g => g.Sum(o => (long)o.Quantity)).ToList());

        // The total (int.MaxValue - 4) fits, but LINQ's running sum passes int.MaxValue first.
        var swing = linq.Query.Where(o => o.Status == "swing");
        Assert.Throws<OverflowException>(() => swing.GroupBy(o => o.Status).Select(g => g.Sum(o => o.Quantity)).ToList());
        linq.AssertSameSequence(q => q.Where(o => o.Status == "swing").GroupBy(o => o.Status)
            .Select(g => new { g.Key, Score = g.Sum(o => o.Score), Max = g.Max(o => o.Score), Min = g.Min(o => o.Score), Mean = g.Average(o => o.Score) }));

        // 1.50m and 1.5m are one key, named as the first document has it; -0.0 and 0.0 are one key too.
        var byTotal = linq.Query.Where(o => o.Id > 1000).GroupBy(o => o.Total).Select(g => new { g.Key, Count = g.Count() }).ToList();
        Assert.Equal(["1.50:3", "2.5:2"], byTotal.Select(g => $"{g.Key}:{g.Count}"));
        var byScore = linq.Query.Where(o => o.Status == "huge").GroupBy(o => o.Score).Select(g => g.Key).ToList();
        Assert.True(double.IsNegative(Assert.Single(byScore)));
        linq.AssertSameSequence(q => q.Where(o => o.Id > 1000).GroupBy(o => o.Total).Select(g => new { g.Key, Min = g.Min(o => o.Total), Count = g.Count() }));
    }

    /// <summary>Min and Max of a value no index order answers (a computed value, a path after OrderBy): on PostgreSQL one group of every match.</summary>
    [Theory]
    [MemberData(nameof(Providers))]
    public async Task Terminal_min_and_max_of_computed_values_match_linq_to_objects(Provider provider)
    {
        using var linq = new ProviderLinq(cluster, provider);
        linq.AssertSameResult(q => q.Max(o => o.Lines.Count));
        linq.AssertSameResult(q => q.Min(o => o.PlacedAt.Month));
        linq.AssertSameResult(q => q.Where(o => o.Paid).Min(o => o.Customer.Name.Length));
        linq.AssertSameResult(q => q.OrderBy(o => o.Score).Max(o => o.Total));
        linq.AssertSameResult(q => q.OrderByDescending(o => o.Quantity).Min(o => o.Note));
        linq.AssertSameResult(q => q.Max(o => o.Lines.Max(l => (int?)l.Qty)));
        linq.AssertSameResult(q => q.Select(o => o.Tags.Count).Min());
        Assert.Null(linq.Query.Where(o => o.Status == "none").Max(o => o.Lines.Max(l => (int?)l.Qty)));
        var empty = Assert.Throws<InvalidOperationException>(() => linq.Query.Where(o => o.Status == "none").Max(o => o.Lines.Count));
        Assert.Equal("Sequence contains no elements", empty.Message);
        Assert.Equal(linq.Orders.Max(o => o.PlacedAt.Day), await linq.Query.MaxAsync(o => o.PlacedAt.Day));
    }

    [Fact]
    public void On_postgresql_a_computed_extreme_reads_one_row()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 60);
        using var statements = new NpgsqlStatements("linq_orders");

        Assert.Equal(linq.Orders.Where(o => o.Paid).Max(o => o.Lines.Count), linq.Query.Where(o => o.Paid).Max(o => o.Lines.Count));

        Assert.Contains(" GROUP BY kx ORDER BY min(o)", Assert.Single(statements.All), StringComparison.Ordinal);
    }

    /// <summary>The statement PostgreSQL ran groups the documents: one row per group crosses the wire.</summary>
    [Fact]
    public void On_postgresql_the_server_groups_with_one_statement()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 80);
        var statement = AssertGroupedByServer(linq, q => q.Where(o => o.Paid).GroupBy(o => o.Status)
            .Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total) }));
        Assert.Contains(" GROUP BY kx ORDER BY min(o)", statement, StringComparison.Ordinal);
        Assert.Contains("COALESCE(sum(x1), 0)::text", statement, StringComparison.Ordinal);

        AssertGroupedByServer(linq, q => q.GroupBy(o => o.Kind).Select(g => new
        {
            g.Key,
            Score = g.Sum(o => o.Score),
            Mean = g.Average(o => o.Quantity),
            Discount = g.Average(o => o.Discount),
            MinNote = g.Min(o => o.Note),
            Last = g.Max(o => o.PlacedAt),
            Big = g.Max(o => o.Big),
        }));
        AssertGroupedByServer(linq, q => q.OrderByDescending(o => o.Total).Take(30).GroupBy(o => o.Note).Select(g => new { g.Key, Count = g.LongCount() }));
        AssertGroupedByServer(linq, q => q.GroupBy(o => o.PlacedAt.Month).Select(g => new { g.Key, Mean = g.Sum(o => o.Total) / g.Count() }));
        AssertGroupedByServer(linq, q => q.GroupBy(o => o.Customer.Name).Select(g => g.Min(o => o.Total)).Skip(2));
    }

    private static string AssertGroupedByServer<T>(ProviderLinq linq, Func<IQueryable<Order>, IQueryable<T>> build)
    {
        using var statements = new NpgsqlStatements("linq_orders");
        linq.AssertSameSequence(build);
        var statement = Assert.Single(statements.All);
        Assert.Contains(" GROUP BY ", statement, StringComparison.Ordinal);
        return statement;
    }

    /// <summary>A group whose running sum overflows is read value by value, so the error is the one LINQ raises while adding.</summary>
    [Fact]
    public void On_postgresql_an_uncertain_group_is_grouped_from_the_values()
    {
        using var linq = new ProviderLinq(cluster, Provider.PostgreSql, count: 5);
        linq.Context.Orders.InsertMany([new Order { Id = 101, Status = "swing", Quantity = int.MaxValue }, new Order { Id = 102, Status = "swing", Quantity = 1 },
            new Order { Id = 103, Status = "swing", Quantity = -2 }]);
        using var statements = new NpgsqlStatements("linq_orders");

        Assert.Throws<OverflowException>(() => linq.Query.Where(o => o.Id > 100).GroupBy(o => o.Status).Select(g => g.Sum(o => o.Quantity)).ToList());

        Assert.Equal(2, statements.All.Count);
        Assert.Contains(" GROUP BY ", statements.All[0], StringComparison.Ordinal);
        Assert.DoesNotContain(" GROUP BY ", statements.All[1], StringComparison.Ordinal);
    }
}
