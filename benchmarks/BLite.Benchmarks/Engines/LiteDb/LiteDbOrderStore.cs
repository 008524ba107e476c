using BLite.Benchmarks.Workload;
using LiteDB;
using LiteBsonValue = LiteDB.BsonValue;
using LiteQuery = LiteDB.Query;

namespace BLite.Benchmarks.Engines.LiteDb;

public sealed class LiteDbOrderStoreFactory : IOrderStoreFactory
{
    public string Engine => LiteDbOrderStore.EngineName;

    public IOrderStore Create(OrderStoreOptions options) => new LiteDbOrderStore(options);
}

/// <summary>
/// The LiteDB peer as its users set it up for speed: direct connection, the typed mapper with the
/// workload's id registered as a string (its 24 hex digits), UTC dates. LiteDB offers no durability
/// switch, so it runs as shipped at <see cref="StoreDurability.OsBuffered"/> and has no
/// <see cref="StoreDurability.FlushPerCommit"/> row; in memory it runs on a <see cref="MemoryStream"/>.
/// It keeps DateTime to the millisecond.
/// </summary>
public sealed class LiteDbOrderStore : IOrderStore
{
    public const string EngineName = "LiteDB";

    private readonly MemoryStream? _memory;
    private readonly LiteDatabase _database;
    private readonly ILiteCollection<CustomerOrder> _orders;

    public LiteDbOrderStore(OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Durability == StoreDurability.FlushPerCommit)
        {
            throw new NotSupportedException("LiteDB has no durability setting; it is compared as shipped (buffered) and in memory, not at flush per commit.");
        }

        Durability = options.Durability;
        var mapper = CreateMapper();
        if (options.Durability == StoreDurability.InMemory)
        {
            _memory = new MemoryStream();
            _database = new LiteDatabase(_memory, mapper);
        }
        else
        {
            Directory.CreateDirectory(options.Directory);
            var connection = new ConnectionString
            {
                Filename = Path.Combine(options.Directory, "orders.litedb"),
                Connection = ConnectionType.Direct,
            };
            _database = new LiteDatabase(connection, mapper);
        }

        // Without this LiteDB hands every DateTime back converted to local time.
        _database.UtcDate = true;
        _orders = _database.GetCollection<CustomerOrder>("orders");
        if (options.IndexStatus)
        {
            _orders.EnsureIndex(order => order.Status);
        }
    }

    public string Engine => EngineName;

    public StoreDurability Durability { get; }

    public long Count => _orders.LongCount();

    public void Insert(CustomerOrder order) => _orders.Insert(order);

    public void InsertBatch(IReadOnlyList<CustomerOrder> orders) => _orders.InsertBulk(orders);

    public CustomerOrder? FindById(OrderId id) => _orders.FindById(Key(id));

    public int FindByStatus(string status, List<CustomerOrder> results)
    {
        var before = results.Count;
        results.AddRange(_orders.Find(LiteQuery.EQ(nameof(CustomerOrder.Status), status)));
        return results.Count - before;
    }

    public bool Update(CustomerOrder order) => _orders.Update(order);

    public bool Delete(OrderId id) => _orders.Delete(Key(id));

    public int DeleteBatch(IReadOnlyList<OrderId> ids)
    {
        _database.BeginTrans();
        var deleted = 0;
        foreach (var id in ids)
        {
            if (_orders.Delete(Key(id)))
            {
                deleted++;
            }
        }

        _database.Commit();
        return deleted;
    }

    // One LiteDatabase in direct mode is shared by every thread of the process, as LiteDB intends.
    public IOrderSession OpenSession() => new LiteDbOrderSession(this);

    public void Dispose()
    {
        _database.Dispose();
        _memory?.Dispose();
    }

    private static LiteBsonValue Key(OrderId id) => new(OrderKeys.ToText(id));

    private static BsonMapper CreateMapper()
    {
        var mapper = new BsonMapper();
        mapper.RegisterType<OrderId>(id => new LiteBsonValue(OrderKeys.ToText(id)), value => OrderId.Parse(value.AsString));
        mapper.Entity<CustomerOrder>().Id(order => order.Id, autoId: false).Ignore(order => order.IdText);
        return mapper;
    }

    private sealed class LiteDbOrderSession(LiteDbOrderStore store) : IOrderSession
    {
        public void Insert(CustomerOrder order) => store.Insert(order);

        public CustomerOrder? FindById(OrderId id) => store.FindById(id);

        public void Dispose()
        {
        }
    }
}
