using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Engines.Sqlite;
using BLite.Benchmarks.Engines.SystemTextJson;

namespace BLite.Benchmarks.Engines;

/// <summary>Every engine and codec the comparison runs, in table order, BLite first.</summary>
public static class OrderStores
{
    /// <summary>
    /// LiteDB is absent: its package cannot be restored from this machine's package source,
    /// and a stand-in would produce figures that mean nothing.
    /// </summary>
    public const string LiteDbAbsence = "LiteDB: not measured, the LiteDB package cannot be restored from this machine's package source.";

    public static IReadOnlyList<IOrderStoreFactory> All { get; } = [new BLiteOrderStoreFactory(), new SqliteOrderStoreFactory()];

    public static IReadOnlyList<Func<IOrderCodec>> Codecs { get; } = [() => new BLiteOrderCodec(), () => new SystemTextJsonOrderCodec()];

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
