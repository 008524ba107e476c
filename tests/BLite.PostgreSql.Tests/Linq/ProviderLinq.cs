using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// The LINQ layer's data set (<see cref="TestData"/>) stored through one provider, with the
/// side-by-side checks of its <c>LinqFixture</c>: each query on the provider against LINQ to
/// Objects over the same list.
/// </summary>
internal sealed class ProviderLinq : IDisposable
{
    private readonly ProviderDatabase _database;

    public ProviderLinq(PostgresCluster cluster, Provider provider, int seed = 1234, int count = 200)
    {
        _database = new ProviderDatabase(cluster, provider);
        Context = new LinqContext(_database.Options());
        Orders = TestData.Orders(seed, count);
        Context.Orders.InsertMany(Orders);
    }

    public LinqContext Context { get; }

    public List<Order> Orders { get; }

    public IQueryable<Order> Query => Context.Orders.Query();

    public string ConnectionString => _database.ConnectionString;

    public void AssertSameSequence<T>(Func<IQueryable<Order>, IQueryable<T>> build)
    {
        var expected = build(Orders.AsQueryable()).ToList();
        Assert.Equal(expected, build(Query).ToList());
    }

    /// <summary>Same documents, in id order (a filter without ordering has no defined order).</summary>
    public void AssertSameIds(Func<IQueryable<Order>, IQueryable<Order>> build)
    {
        var expected = build(Orders.AsQueryable()).Select(o => o.Id).Order().ToList();
        Assert.NotEmpty(expected);
        Assert.Equal(expected, build(Query).Select(o => o.Id).AsEnumerable().Order().ToList());
    }

    public void AssertSameResult<T>(Func<IQueryable<Order>, T> run) => Assert.Equal(run(Orders.AsQueryable()), run(Query));

    public void Dispose()
    {
        Context.Dispose();
        _database.Dispose();
    }
}
