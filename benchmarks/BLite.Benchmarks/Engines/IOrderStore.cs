using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Engines;

/// <summary>
/// Opens one engine's store for the comparison workload. An engine joins the comparison by
/// implementing this and <see cref="IOrderStore"/>, and being listed in <see cref="OrderStores.All"/>.
/// </summary>
public interface IOrderStoreFactory
{
    /// <summary>"BLite", "LiteDB" or "SQLite": the name printed in every table.</summary>
    string Engine { get; }

    /// <summary>Creates an empty store (the directory is fresh and exclusive to it).</summary>
    IOrderStore Create(OrderStoreOptions options);
}

/// <summary>
/// The calls one thread makes. A store is itself the session of the thread that opened it;
/// <see cref="IOrderStore.OpenSession"/> gives other threads their own.
/// </summary>
public interface IOrderSession : IDisposable
{
    /// <summary>Inserts one document in its own transaction, committed at the store's durability.</summary>
    void Insert(CustomerOrder order);

    /// <summary>The stored document with that id, deserialized, or null when there is none.</summary>
    CustomerOrder? FindById(OrderId id);
}

/// <summary>
/// One engine's store holding <see cref="CustomerOrder"/> documents. Single-threaded except
/// through sessions; every write is its own transaction unless the method says otherwise.
/// </summary>
public interface IOrderStore : IOrderSession
{
    string Engine { get; }

    StoreDurability Durability { get; }

    /// <summary>How many documents the store holds (checks a population; never timed).</summary>
    long Count { get; }

    /// <summary>Inserts every document in one transaction.</summary>
    void InsertBatch(IReadOnlyList<CustomerOrder> orders);

    /// <summary>
    /// Appends every document whose Status equals <paramref name="status"/> to
    /// <paramref name="results"/>, deserialized; uses the Status index when the store has one.
    /// Returns how many were appended.
    /// </summary>
    int FindByStatus(string status, List<CustomerOrder> results);

    /// <summary>Replaces the whole stored document with the same id; false if there is none.</summary>
    bool Update(CustomerOrder order);

    /// <summary>Deletes the document with that id; false if there is none.</summary>
    bool Delete(OrderId id);

    /// <summary>Deletes every listed id that is present, in one transaction; returns how many were.</summary>
    int DeleteBatch(IReadOnlyList<OrderId> ids);

    /// <summary>
    /// A session for another thread (reads see committed data; writes commit at the store's
    /// durability). Engines that allow one connection per thread only (SQLite) open one here.
    /// </summary>
    IOrderSession OpenSession();
}

/// <summary>A store that totals orders per status itself (the server stores), for the GroupBy scenario.</summary>
public interface IGroupingOrderStore
{
    /// <summary>The sum of Total per Status, added over the groups (so peers can be checked against each other).</summary>
    decimal SumTotalByStatus();
}
