using BLite.Benchmarks.Workload;
using Microsoft.Data.Sqlite;

namespace BLite.Benchmarks.Engines.Sqlite;

public sealed class SqliteOrderStoreFactory : IOrderStoreFactory
{
    public string Engine => SqliteOrderStore.EngineName;

    public IOrderStore Create(OrderStoreOptions options) => new SqliteOrderStore(options);
}

/// <summary>
/// The SQLite + JSON peer: table <c>orders (Id TEXT PRIMARY KEY, Data TEXT)</c> holding
/// System.Text.Json text, plus a virtual generated <c>Status</c> column (indexed only when the
/// options ask), in WAL mode with synchronous matched to the durability level.
/// </summary>
public sealed class SqliteOrderStore : IOrderStore
{
    public const string EngineName = "SQLite";

    private readonly SqliteOrderConnection _main;
    private readonly string? _connectionString;

    public SqliteOrderStore(OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Durability = options.Durability;
        string mainConnectionString;
        if (options.Durability == StoreDurability.InMemory)
        {
            mainConnectionString = new SqliteConnectionStringBuilder { DataSource = ":memory:", Pooling = false }.ToString();
        }
        else
        {
            Directory.CreateDirectory(options.Directory);
            _connectionString = new SqliteConnectionStringBuilder
            {
                DataSource = Path.Combine(options.Directory, "orders.sqlite"),
                Mode = SqliteOpenMode.ReadWriteCreate,
                Cache = SqliteCacheMode.Private,
                // Pooling would keep the file open after Dispose; each store owns its connections instead.
                Pooling = false,
            }.ToString();
            mainConnectionString = _connectionString;
        }

        _main = new SqliteOrderConnection(mainConnectionString, options.Durability, createSchema: true, options.IndexStatus);
    }

    public string Engine => EngineName;

    public StoreDurability Durability { get; }

    public long Count => _main.CountRows();

    public void Insert(CustomerOrder order) => _main.Insert(order);

    public void InsertBatch(IReadOnlyList<CustomerOrder> orders) => _main.InsertBatch(orders);

    public CustomerOrder? FindById(OrderId id) => _main.FindById(id);

    public int FindByStatus(string status, List<CustomerOrder> results) => _main.FindByStatus(status, results);

    public bool Update(CustomerOrder order) => _main.Update(order);

    public bool Delete(OrderId id) => _main.Delete(id);

    public int DeleteBatch(IReadOnlyList<OrderId> ids) => _main.DeleteBatch(ids);

    public IOrderSession OpenSession()
    {
        // A :memory: database belongs to one connection; a second connection would see another, empty database.
        if (_connectionString is null)
        {
            throw new NotSupportedException("An in-memory SQLite store has one connection; concurrent scenarios need a file store.");
        }

        return new SqliteOrderSession(new SqliteOrderConnection(_connectionString, Durability, createSchema: false, indexStatus: false));
    }

    public void Dispose() => _main.Dispose();

    private sealed class SqliteOrderSession(SqliteOrderConnection connection) : IOrderSession
    {
        public void Insert(CustomerOrder order) => connection.Insert(order);

        public CustomerOrder? FindById(OrderId id) => connection.FindById(id);

        public void Dispose() => connection.Dispose();
    }
}
