using BLite.Linq;

namespace BLite.Tests.Linq;

public class QueryCacheTests
{
    private readonly List<Order> _orders = TestData.Orders(21, 120);
    private readonly InMemoryQuerySource _source;
    private readonly IQueryable<Order> _query;

    public QueryCacheTests()
    {
        _source = new InMemoryQuerySource(_orders);
        _query = BLiteQuery.Create(_source);
    }

    private BLiteQueryProvider<Order> Provider => (BLiteQueryProvider<Order>)_query.Provider;

    [Fact]
    public void A_repeated_query_with_new_captured_values_is_translated_once()
    {
        for (var minimum = 0; minimum < 10; minimum++)
        {
            var take = minimum + 1;
            var actual = _query.Where(o => o.Quantity > minimum).OrderBy(o => o.Total).ThenBy(o => o.Id).Take(take).Select(o => o.Id).ToList();
            var expected = _orders.Where(o => o.Quantity > minimum).OrderBy(o => o.Total).ThenBy(o => o.Id).Take(take).Select(o => o.Id).ToList();
            Assert.Equal(expected, actual);
        }

        Assert.Equal(1, Provider.CacheMisses);
        Assert.Equal(9, Provider.CacheHits);
        Assert.Single(_source.Executed.Distinct());
    }

    [Fact]
    public void A_repeated_shape_is_matched_without_parameterizing_and_reads_each_calls_values()
    {
        foreach (var order in _orders.Take(12))
        {
            var id = order.Id;
            var status = order.Status;
            Assert.Equal(new { order.Status, order.Total }, _query.Where(o => o.Id == id).Select(o => new { o.Status, o.Total }).First());
            Assert.Equal(_orders.Count(o => o.Status == status && o.Quantity > 2), _query.Count(o => o.Status == status && o.Quantity > 2));
        }

        Assert.Equal(2, Provider.CacheMisses);
        Assert.Equal(22, Provider.RecentHits);
    }

    [Fact]
    public void A_sub_tree_reading_the_document_never_fills_a_parameter_slot()
    {
        var limit = 50m;
        Assert.Equal(_orders.Count(o => o.Total > limit), _query.Count(o => o.Total > limit));
        Assert.Equal(_orders.Count(o => o.Total > o.Quantity), _query.Count(o => o.Total > o.Quantity));
        Assert.Equal(_orders.Where(o => o.Total > o.Quantity + 1).Select(o => o.Id), _query.Where(o => o.Total > o.Quantity + 1).Select(o => o.Id));
        Assert.Equal(0, Provider.RecentHits);
        Assert.Equal(3, Provider.CacheMisses);
    }

    [Fact]
    public void A_captured_call_runs_once_per_execution_on_the_fast_path()
    {
        var counter = new CallCounter();

        for (var i = 1; i <= 6; i++)
        {
            var expected = _orders.Count(o => o.Quantity > i % 5);
            Assert.Equal(expected, _query.Count(o => o.Quantity > counter.Next()));
            Assert.Equal(i, counter.Calls);
        }

        Assert.Equal(5, Provider.RecentHits);
    }

    [Fact]
    public void Literals_are_parameters_too()
    {
        Assert.Equal(_orders.Count(o => o.Quantity > 3), _query.Count(o => o.Quantity > 3));
        Assert.Equal(_orders.Count(o => o.Quantity > 7), _query.Count(o => o.Quantity > 7));
        Assert.Equal(1, Provider.CacheMisses);
        Assert.Equal(1, Provider.CacheHits);
    }

    [Fact]
    public void Different_shapes_get_different_entries()
    {
        _ = _query.Count(o => o.Quantity > 3);
        _ = _query.Count(o => o.Quantity < 3);
        _ = _query.Count(o => o.Status == "x");
        _ = _query.Where(o => o.Quantity > 3).Count();
        Assert.Equal(4, Provider.CacheMisses);
        Assert.Equal(0, Provider.CacheHits);
    }

    [Fact]
    public void A_captured_condition_on_no_field_selects_between_two_cached_shapes()
    {
        foreach (var onlyPaid in new[] { true, false, true, false })
        {
            var actual = _query.Count(o => !onlyPaid || o.Paid);
            Assert.Equal(_orders.Count(o => !onlyPaid || o.Paid), actual);
        }

        Assert.Equal(2, Provider.CacheMisses);
        Assert.Equal(2, Provider.CacheHits);
    }

    [Fact]
    public void Captured_lists_are_parameters_whose_contents_change_per_execution()
    {
        var wanted = new List<string> { "shipped" };
        Assert.Equal(_orders.Count(o => wanted.Contains(o.Status)), _query.Count(o => wanted.Contains(o.Status)));
        wanted.Add("pending");
        Assert.Equal(_orders.Count(o => wanted.Contains(o.Status)), _query.Count(o => wanted.Contains(o.Status)));
        Assert.Equal(1, Provider.CacheHits);
    }

    [Fact]
    public void Captured_arrays_bound_to_span_contains_reuse_one_plan_with_new_contents()
    {
        foreach (var wanted in new[] { new[] { "shipped" }, new[] { "pending", "cancelled" }, Array.Empty<string>() })
        {
            Assert.Equal(_orders.Count(o => wanted.Contains(o.Status)), _query.Count(o => wanted.Contains(o.Status)));
        }

        Assert.Equal(1, Provider.CacheMisses);
        Assert.Equal(2, Provider.CacheHits);
    }

    [Fact]
    public void Inline_arrays_of_different_lengths_share_one_plan()
    {
        Assert.Equal(_orders.Count(o => new[] { 1, 2 }.Contains(o.Quantity)), _query.Count(o => new[] { 1, 2 }.Contains(o.Quantity)));
        Assert.Equal(_orders.Count(o => new[] { 3, 5, 7 }.Contains(o.Quantity)), _query.Count(o => new[] { 3, 5, 7 }.Contains(o.Quantity)));
        Assert.Equal(1, Provider.CacheMisses);
        Assert.Equal(1, Provider.CacheHits);
    }

    [Fact]
    public async Task Concurrent_executions_of_one_shape_keep_their_own_values()
    {
        var tasks = Enumerable.Range(0, 8).Select(minimum => Task.Run(() =>
        {
            var count = _query.Count(o => o.Quantity >= minimum);
            Assert.Equal(_orders.Count(o => o.Quantity >= minimum), count);
        }));
        await Task.WhenAll(tasks);
        Assert.Equal(8, Provider.CacheHits + Provider.CacheMisses);
        Assert.Equal(1, Provider.CachedShapes);
    }

    [Fact]
    public void A_query_built_once_reads_its_captured_variable_at_each_execution()
    {
        var minimum = 1;
        var query = _query.Where(o => o.Quantity > minimum).Select(o => o.Id);
        for (minimum = 0; minimum < 6; minimum++)
        {
            var expected = _orders.Where(o => o.Quantity > minimum).Select(o => o.Id).ToList();
            Assert.Equal(expected, query.ToList());
            Assert.Equal(expected.Count, query.Count());
        }

        Assert.Equal(2, Provider.CacheMisses);
        Assert.Equal(10, Provider.CacheHits);
    }

    [Fact]
    public void A_captured_call_that_runs_a_query_itself_gets_its_own_values()
    {
        var nested = new NestedQuery(_query);
        for (var offset = 0; offset < 5; offset++)
        {
            nested.Offset = offset;
            var expected = _orders.Count(o => o.Quantity > offset) % 7;
            Assert.Equal(_orders.Where(o => o.Quantity > expected && o.Total > offset).Select(o => o.Id).ToList(),
                _query.Where(o => o.Quantity > nested.Threshold() && o.Total > offset).Select(o => o.Id).ToList());
        }

        Assert.True(Provider.RecentHits >= 8, $"the repeated shapes were matched on the fast path ({Provider.RecentHits} recent hits)");
    }

    [Fact]
    public void The_translation_cache_is_bounded_and_an_evicted_shape_comes_back_with_the_current_values()
    {
        var provider = new BLiteQueryProvider<Order>(_source, maxCachedShapes: 3);
        var query = provider.CreateQuery<Order>(_query.Expression);
        var minimum = 0;
        // Six shapes run in turn: more than the recent-shape slots and twice the cache's bound, so
        // every execution looks its shape up and finds it evicted.
        Func<IQueryable<Order>, IQueryable<int>>[] shapes =
        [
            q => q.Where(o => o.Quantity > minimum).Select(o => o.Id),
            q => q.Where(o => o.Quantity < minimum + 3).Select(o => o.Id),
            q => q.Where(o => o.Total > minimum * 10).Select(o => o.Id),
            q => q.Where(o => o.Quantity == minimum).Select(o => o.Id),
            q => q.Where(o => o.Quantity != minimum).OrderByDescending(o => o.Id).Select(o => o.Id),
            q => q.OrderBy(o => o.Id).Skip(minimum * 7).Select(o => o.Id),
        ];
        for (var round = 0; round < 3; round++)
        {
            foreach (var shape in shapes)
            {
                minimum = round + 1;
                Assert.Equal(shape(_orders.AsQueryable()).ToList(), shape(query).ToList());
                Assert.InRange(provider.CachedShapes, 1, 3);
            }
        }

        Assert.Equal(18, provider.CacheMisses);
        Assert.Equal(0, provider.CacheHits);
    }

    /// <summary>A value a query reads by running another query on the same provider and thread.</summary>
    private sealed class NestedQuery(IQueryable<Order> query)
    {
        public int Offset { get; set; }

        public int Threshold()
        {
            var offset = Offset;
            return query.Count(o => o.Quantity > offset) % 7;
        }
    }

    private sealed class CallCounter
    {
        public int Calls { get; private set; }

        public int Next() => ++Calls % 5;
    }
}
