using BLite.Benchmarks.Query;
using BLite.Benchmarks.Query.References;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

internal sealed partial class ManualRunner
{
    private const string QueryDurability = "memory";

    /// <summary>Projection, aggregate and reference scenarios, every engine in memory (docs/query.md section 5).</summary>
    private void RunQueries(int documents)
    {
        var orders = new OrderGenerator().Generate(documents);
        var keys = orders.Select(o => o.Id).ToArray();
        new Random(7).Shuffle(keys);
        using (var peers = new DisposableList<IProjectionPeer>())
        {
            peers.Add(new BLiteProjectionPeer(orders, prepared: true));
            peers.Add(new BLiteProjectionPeer(orders, prepared: false));
            peers.Add(new SqliteProjectionPeer(orders));
            Compare("find-by-id-project-2", QueryDurability, peers, p => p.Engine, p => _timer.Operations(int.MaxValue, i => p.ProjectById(keys[i % keys.Length])));
            // Scans and groups run the same way through either BLite peer: one of them is enough.
            IProjectionPeer[] scanners = [peers[0], peers[2]];
            Compare("scan-status-project", QueryDurability, scanners, p => p.Engine, p => _timer.Operations(int.MaxValue, _ => p.ScanProject()));
            Compare("sum-total-by-status", QueryDurability, scanners, p => p.Engine, p => _timer.Operations(int.MaxValue, _ => p.SumByStatus()));
            Compare("distinct-status", QueryDurability, scanners, p => p.Engine, p => _timer.Operations(int.MaxValue, _ => p.DistinctStatuses()));
        }

        var linked = LinkedDataset.Create(documents);
        using var references = new DisposableList<IReferencePeer>();
        references.Add(new BLiteReferencePeer(linked));
        references.Add(new SqliteReferencePeer(linked));
        Compare("include-customer", QueryDurability, references, p => p.Engine, p => _timer.Operations(int.MaxValue, _ => p.IncludeAccounts()));
        Compare("two-hop", QueryDurability, references, p => p.Engine, p => _timer.Operations(int.MaxValue, i => p.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities))));
    }
}
