using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.PostgreSql;

namespace BLite.Benchmarks.Manual;

internal sealed partial class ManualRunner
{
    /// <summary>
    /// BLite's context on PostgreSQL beside raw Npgsql with hand-written SQL over the same jsonb
    /// schema, on the server <c>BLITE_POSTGRES</c> names: what the provider abstraction costs.
    /// Without a configured server the phase is skipped with a line saying so.
    /// </summary>
    private void RunPostgreSqlStores()
    {
        if (PostgreSqlServer.ConnectionString is not { } server)
        {
            _log.WriteLine($"  postgresql: skipped, {PostgreSqlServer.Variable} names no server (.ci/start-postgres DIR prints one)");
            return;
        }

        IOrderStoreFactory[] factories = [new BLitePostgreSqlOrderStoreFactory(server), new NpgsqlOrderStoreFactory(server)];
        using var stores = new DisposableList<IOrderStore>();
        foreach (var factory in factories)
        {
            stores.Add(CreatePopulated(factory, StoreDurability.Server, indexStatus: true));
        }

        // Both must return exactly what the embedded stores returned.
        CheckAgreement(stores);
        RunFindByIdSingle(stores);
        RunScan(stores, "scan-status-indexed");
        RunInsertSingle(stores);
    }
}
