using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Engines.LiteDb;
using BLite.Benchmarks.Engines.MemoryPackCodec;
using BLite.Benchmarks.Engines.Sqlite;
using BLite.Benchmarks.Engines.SystemTextJson;

namespace BLite.Benchmarks.Engines;

/// <summary>Every engine and codec the comparison runs, in table order, BLite first.</summary>
public static class OrderStores
{
    public static IReadOnlyList<IOrderStoreFactory> All { get; } = [new BLiteOrderStoreFactory(), new SqliteOrderStoreFactory(), new LiteDbOrderStoreFactory()];

    public static IReadOnlyList<Func<IOrderCodec>> Codecs { get; } = [() => new BLiteOrderCodec(), () => new MemoryPackOrderCodec(), () => new SystemTextJsonOrderCodec()];

    /// <summary>
    /// The engines that offer <paramref name="durability"/>: LiteDB has no durability setting, so it
    /// has no row at <see cref="StoreDurability.FlushPerCommit"/>.
    /// </summary>
    public static IEnumerable<IOrderStoreFactory> Offering(StoreDurability durability) =>
        All.Where(factory => durability != StoreDurability.FlushPerCommit || factory.Engine != LiteDbOrderStore.EngineName);

    public static IOrderStoreFactory Get(string engine)
    {
        foreach (var factory in All)
        {
            if (factory.Engine == engine)
            {
                return factory;
            }
        }

        throw new ArgumentException($"No engine named '{engine}' is part of the comparison.", nameof(engine));
    }
}
