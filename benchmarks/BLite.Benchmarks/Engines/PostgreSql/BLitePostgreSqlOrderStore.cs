using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;
using BLite.PostgreSql;

namespace BLite.Benchmarks.Engines.PostgreSql;

public sealed class BLitePostgreSqlOrderStoreFactory(string server) : IOrderStoreFactory
{
    public string Engine => BLitePostgreSqlOrderStore.EngineName;

    public IOrderStore Create(OrderStoreOptions options) => new BLitePostgreSqlOrderStore(server, options);
}

/// <summary>
/// The same <see cref="BenchOrdersContext"/> the embedded comparison uses, opened with
/// <c>UsePostgreSql</c>: the abstraction whose cost the raw Npgsql peer measures.
/// </summary>
public sealed class BLitePostgreSqlOrderStore : IOrderStore
{
    public const string EngineName = "BLite+PostgreSQL";

    private readonly string _server;
    private readonly string _schema;
    private readonly BenchOrdersContext _context;
    private readonly DocumentCollection<OrderId, CustomerOrder> _orders;

    public BLitePostgreSqlOrderStore(string server, OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _server = server;
        _schema = PostgreSqlServer.NewSchema("blite");
        var contextOptions = new DocumentDbContextOptions().UsePostgreSql(PostgreSqlServer.CreateSchema(server, _schema));
        _context = options.IndexStatus ? new IndexedBenchOrdersContext(contextOptions) : new BenchOrdersContext(contextOptions);
        _orders = _context.Orders;
    }

    public string Engine => EngineName;

    public StoreDurability Durability => StoreDurability.Server;

    public long Count => _orders.Count();

    public void Insert(CustomerOrder order) => _orders.Insert(order);

    public void InsertBatch(IReadOnlyList<CustomerOrder> orders) => _orders.InsertMany(orders);

    public CustomerOrder? FindById(OrderId id) => _orders.FindById(id);

    public int FindByStatus(string status, List<CustomerOrder> results)
    {
        var found = 0;
        foreach (var order in _orders.Find(o => o.Status == status))
        {
            results.Add(order);
            found++;
        }

        return found;
    }

    public bool Update(CustomerOrder order) => _orders.Update(order);

    public bool Delete(OrderId id) => _orders.Delete(id);

    public int DeleteBatch(IReadOnlyList<OrderId> ids)
    {
        using var transaction = _context.BeginTransaction();
        var deleted = 0;
        for (var i = 0; i < ids.Count; i++)
        {
            deleted += _orders.Delete(ids[i]) ? 1 : 0;
        }

        transaction.Commit();
        return deleted;
    }

    public IOrderSession OpenSession() => throw new NotSupportedException("The PostgreSQL comparison runs single-threaded scenarios only.");

    public void Dispose()
    {
        _context.Dispose();
        PostgreSqlServer.DropSchema(_server, _schema);
    }
}
