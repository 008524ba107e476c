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
        RunGroupSum(stores);
        RunInsertSingle(stores);
    }

    /// <summary>Sum of Total per Status over the whole collection: LINQ's GroupBy beside a hand-written GROUP BY.</summary>
    private void RunGroupSum(IReadOnlyList<IOrderStore> stores)
    {
        var totals = stores.Select(store => ((IGroupingOrderStore)store).SumTotalByStatus()).Distinct().ToList();
        if (totals.Count != 1)
        {
            throw new InvalidOperationException($"The stores disagree on the totals per status: {string.Join(", ", totals)}.");
        }

        Compare("group-sum-total-by-status", stores, store => _timer.Operations(int.MaxValue, _ => ((IGroupingOrderStore)store).SumTotalByStatus()));
    }
}
