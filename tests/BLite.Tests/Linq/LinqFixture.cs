using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>One data set queried through BLite and through LINQ to Objects, for side-by-side checks.</summary>
internal sealed class LinqFixture
{
    public LinqFixture(int seed = 1234, int count = 300)
    {
        Orders = TestData.Orders(seed, count);
        Source = new InMemoryQuerySource(Orders);
        Query = BLiteQuery.Create(Source);
    }

    public List<Order> Orders { get; }

    public InMemoryQuerySource Source { get; }

    public IQueryable<Order> Query { get; }

    public IQueryable<Order> Expected => Orders.AsQueryable();

    public void AssertSameSequence<T>(Func<IQueryable<Order>, IQueryable<T>> build)
    {
        var expected = build(Expected).ToList();
        var actual = build(Query).ToList();
        Assert.Equal(expected, actual);
    }

    public void AssertSameIds(Func<IQueryable<Order>, IQueryable<Order>> build) =>
        AssertSameSequence(q => build(q).Select(o => o.Id));

    public void AssertSameResult<T>(Func<IQueryable<Order>, T> run)
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
