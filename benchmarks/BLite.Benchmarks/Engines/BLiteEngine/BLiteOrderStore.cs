using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Engines.BLiteEngine;

public sealed class BLiteOrderStoreFactory : IOrderStoreFactory
{
    public string Engine => BLiteOrderStore.EngineName;

    public IOrderStore Create(OrderStoreOptions options) => new BLiteOrderStore(options);
}

/// <summary>
/// BLite through its typed API: a <see cref="BenchOrdersContext"/> (or the indexed variant) with
/// durability matched to the level — Full (WAL flushed per commit, group commit), Normal (synced
/// at checkpoint), or in memory. One context serves every thread: reads run on snapshots without
/// locks and writers queue for the single writer slot, so a session is the context itself.
/// </summary>
public sealed class BLiteOrderStore : IOrderStore, IGroupingOrderStore
{
    public const string EngineName = "BLite";

    // Large enough to hold a 100,000-order dataset's pages (about 150 MiB of C-BSON plus index
    // pages), as an expert sizes the cache to the working set; SQLite gets its own 64 MiB cache
    // and the OS page cache through mmap.
    private const long CacheBudgetBytes = 256L * 1024 * 1024;

    private readonly BenchOrdersContext _context;
    private readonly DocumentCollection<OrderId, CustomerOrder> _orders;
    private readonly Action? _afterDispose;

    /// <summary>
    /// The same adapter over a context opened elsewhere (BLite on another store provider), named
    /// <paramref name="engine"/>; <paramref name="afterDispose"/> runs once the context is closed.
    /// </summary>
    public BLiteOrderStore(string engine, StoreDurability durability, BenchOrdersContext context, Action? afterDispose)
    {
        Engine = engine;
        Durability = durability;
        _context = context;
        _orders = context.Orders;
        _afterDispose = afterDispose;
    }

    public BLiteOrderStore(OrderStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        Engine = EngineName;
        Durability = options.Durability;
        DocumentDbContextOptions contextOptions;
        if (options.Durability == StoreDurability.InMemory)
        {
            contextOptions = DocumentDbContextOptions.ForMemory();
        }
        else
        {
            Directory.CreateDirectory(options.Directory);
            contextOptions = new DocumentDbContextOptions
            {
                Path = Path.Combine(options.Directory, "orders.blite"),
                Durability = options.Durability == StoreDurability.FlushPerCommit
                    ? global::BLite.Durability.Full
                    : global::BLite.Durability.Normal,
            };
        }

        contextOptions.CacheBudgetBytes = CacheBudgetBytes;
        _context = options.IndexStatus ? new IndexedBenchOrdersContext(contextOptions) : new BenchOrdersContext(contextOptions);
        _orders = _context.Orders;
    }

    /// <summary>The storage engine under the context (the commit-latency tail profile reads its counters).</summary>
    internal global::BLite.Core.Storage.StorageEngine Storage => _context.Engine.Storage;

    public string Engine { get; }

    public StoreDurability Durability { get; }

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

    /// <summary>The status scan without building the orders: the engine's share of <see cref="FindByStatus"/> (profile scans ... count).</summary>
    internal int CountByStatus(string status) => _orders.Count(o => o.Status == status);

    /// <summary>LINQ's GroupBy: one GROUP BY statement on PostgreSQL, the projected fields grouped in memory embedded.</summary>
    public decimal SumTotalByStatus()
    {
        var total = 0m;
        foreach (var group in _orders.Query().GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total) }))
        {
            total += group.Total;
        }

        return total;
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

    public IOrderSession OpenSession() => new BLiteOrderSession(_orders);

    public void Dispose()
    {
        _context.Dispose();
        _afterDispose?.Invoke();
    }

    private sealed class BLiteOrderSession(DocumentCollection<OrderId, CustomerOrder> orders) : IOrderSession
    {
        public void Insert(CustomerOrder order) => orders.Insert(order);

        public CustomerOrder? FindById(OrderId id) => orders.FindById(id);

        // The context belongs to the store; a session holds nothing of its own.
        public void Dispose()
        {
        }
    }
}
