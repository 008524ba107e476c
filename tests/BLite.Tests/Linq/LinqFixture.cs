using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>One data set queried through BLite and through LINQ to Objects, for side-by-side checks.</summary>
public sealed class LinqFixture
{
    public LinqFixture()
        : this(1234, 300)
    {
    }

    internal LinqFixture(int seed, int count)
    {
        Orders = TestData.Orders(seed, count);
        Source = new InMemoryQuerySource(Orders);
        Query = BLiteQuery.Create(Source);
    }

    internal List<Order> Orders { get; }

    internal InMemoryQuerySource Source { get; }

    internal IQueryable<Order> Query { get; }

    internal IQueryable<Order> Expected => Orders.AsQueryable();

    internal void AssertSameSequence<T>(Func<IQueryable<Order>, IQueryable<T>> build)
    {
        var expected = build(Expected).ToList();
        var actual = build(Query).ToList();
        Assert.Equal(expected, actual);
    }

    internal void AssertSameIds(Func<IQueryable<Order>, IQueryable<Order>> build) =>
        AssertSameSequence(q => build(q).Select(o => o.Id));

    internal void AssertSameResult<T>(Func<IQueryable<Order>, T> run)
    {
        var expected = Capture(() => run(Expected));
        var actual = Capture(() => run(Query));
        Assert.Equal(expected.Exception?.GetType(), actual.Exception?.GetType());
        Assert.Equal(expected.Value, actual.Value);
    }

    private static (T? Value, Exception? Exception) Capture<T>(Func<T> run)
    {
        try
        {
            return (run(), null);
        }
        catch (InvalidOperationException e)
        {
            return (default, e);
        }
    }
}
