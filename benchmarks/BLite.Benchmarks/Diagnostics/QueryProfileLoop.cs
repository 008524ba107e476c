using BLite.Benchmarks.Query;
using BLite.Benchmarks.Query.References;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile project-by-id|scan-project|two-hop blite|sqlite COUNT</c>: one query scenario of
/// the manual mode repeated COUNT times over 1,000 orders in memory, for a sampling
/// profiler (<c>perf record</c> with <c>DOTNET_PerfMapEnabled=1</c>) or <c>valgrind --tool=callgrind</c>.
/// Prints the checksum and the mean time per operation.
/// </summary>
internal static class QueryProfileLoop
{
    public static int Run(string[] args)
    {
        if (args.Length != 3 || args[0] is not ("project-by-id" or "scan-project" or "two-hop") || args[1] is not ("blite" or "sqlite")
            || !int.TryParse(args[2], out var count) || count < 0)
        {
            Console.Error.WriteLine("usage: profile project-by-id|scan-project|two-hop blite|sqlite COUNT");
            return 2;
        }

        var blite = args[1] == "blite";
        Func<int, decimal> operation;
        IDisposable peer;
        if (args[0] == "two-hop")
        {
            var linked = LinkedDataset.Create(1000);
            IReferencePeer references = blite ? new BLiteReferencePeer(linked) : new SqliteReferencePeer(linked);
            peer = references;
            operation = i => references.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities));
        }
        else
        {
            var orders = new OrderGenerator().Generate(1000);
            var keys = orders.Select(o => o.Id).ToArray();
            IProjectionPeer projections = blite ? new BLiteProjectionPeer(orders, prepared: true) : new SqliteProjectionPeer(orders);
            peer = projections;
            operation = args[0] == "project-by-id" ? i => projections.ProjectById(keys[i % keys.Length]) : _ => projections.ScanProject();
        }

        using (peer)
        {
            var checksum = 0m;
            for (var i = 0; i < Math.Min(count, 2000); i++)
            {
                checksum += operation(i);
            }

            var started = System.Diagnostics.Stopwatch.GetTimestamp();
            for (var i = 0; i < count; i++)
            {
                checksum += operation(i);
            }

            var elapsed = System.Diagnostics.Stopwatch.GetElapsedTime(started);
            Console.WriteLine($"{args[0]} {args[1]} x{count}: {elapsed.TotalMilliseconds * 1000 / Math.Max(count, 1):F3} us/op, checksum {checksum}");
        }

        return 0;
    }
}
