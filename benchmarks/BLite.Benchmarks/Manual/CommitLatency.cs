using System.Diagnostics;
using System.Globalization;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// <c>manual --commit-latency N</c>: the distribution of single-insert commit latency over N
/// inserts into a new store, per engine, at the <c>buffered</c> and <c>flush</c> levels. A median
/// hides the commit that pays for a checkpoint; p90, p99 and the maximum show it. BLite and SQLite
/// insert the same seeded orders in alternating blocks, so a burst of load on a shared machine
/// lands on both. Also reports managed bytes allocated per insert and per delete.
/// </summary>
internal static class CommitLatency
{
    private const int Block = 500;
    private const int WarmUpInserts = 3000;
    private const int DeleteSample = 2000;
    private static readonly string[] Engines = ["BLite", "SQLite"];

    /// <summary>At <c>flush</c> every insert waits for an fsync (75 µs to several ms on a shared VM), so that level runs at most this many.</summary>
    private const int MaxFlushInserts = 10_000;

    public static void Run(int inserts, TextWriter output, bool profileTails = false)
    {
        var allOrders = new OrderGenerator(seed: 1515).Generate(inserts);
        var warmUp = new OrderGenerator(seed: 1516).Generate(WarmUpInserts);
        var directory = Path.Combine(Path.GetTempPath(), $"blite-latency-{Environment.ProcessId}");
        var rows = new List<string>();
        var profiles = new StringWriter();
        try
        {
            foreach (var durability in new[] { StoreDurability.OsBuffered, StoreDurability.FlushPerCommit })
            {
                var orders = durability == StoreDurability.FlushPerCommit && allOrders.Count > MaxFlushInserts ? allOrders.GetRange(0, MaxFlushInserts) : allOrders;
                var count = orders.Count;
                WarmUp(directory, durability, warmUp);
                var latencies = Engines.ToDictionary(engine => engine, _ => new long[count]);
                var allocated = Engines.ToDictionary(engine => engine, _ => 0L);
                var stores = Engines.Select((engine, i) => OrderStores.Get(engine).Create(
                    new OrderStoreOptions(Path.Combine(directory, $"{engine}-{durability.Label()}").ToLowerInvariant(), durability, IndexStatus: false))).ToArray();
                var probes = profileTails ? stores.ToDictionary(store => store.Engine, store => new CommitTailProfile(store, count)) : null;
                try
                {
                    for (var start = 0; start < count; start += Block)
                    {
                        var end = Math.Min(count, start + Block);
                        foreach (var store in stores)
                        {
                            var times = latencies[store.Engine];
                            var probe = probes?[store.Engine];
                            var before = GC.GetAllocatedBytesForCurrentThread();
                            for (var i = start; i < end; i++)
                            {
                                probe?.Before();
                                var began = Stopwatch.GetTimestamp();
                                store.Insert(orders[i]);
                                times[i] = Stopwatch.GetTimestamp() - began;
                                probe?.After(i);
                            }

                            allocated[store.Engine] += GC.GetAllocatedBytesForCurrentThread() - before;
                        }
                    }

                    foreach (var store in stores)
                    {
                        var deleteBytes = DeleteAllocation(store, orders);
                        rows.Add(Row(store.Engine, durability, count, latencies[store.Engine], (double)allocated[store.Engine] / count, deleteBytes));
                        probes?[store.Engine].Report(store.Engine, durability.Label(), latencies[store.Engine], profiles);
                        output.WriteLine($"  commit-latency {durability.Label(),-8} {store.Engine,-7} done");
                    }
                }
                finally
                {
                    foreach (var store in stores)
                    {
                        store.Dispose();
                        probes?[store.Engine].Dispose();
                    }
                }
            }
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }

        output.WriteLine();
        output.WriteLine($"Single-insert commit latency, inserts into a new store (orders as in the comparison workload; at most {MaxFlushInserts:N0} at flush):");
        output.WriteLine();
        output.WriteLine("| Durability | Engine | Inserts | p50 | p90 | p99 | max | p99 / p50 | max / p50 | Allocated per insert | Allocated per delete |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var row in rows)
        {
            output.WriteLine(row);
        }

        if (profileTails)
        {
            output.WriteLine();
            output.Write(profiles.ToString());
        }
    }

    private static void WarmUp(string directory, StoreDurability durability, List<CustomerOrder> orders)
    {
        foreach (var engine in Engines)
        {
            using var store = OrderStores.Get(engine).Create(
                new OrderStoreOptions(Path.Combine(directory, $"warm-{engine}-{durability.Label()}").ToLowerInvariant(), durability, IndexStatus: false));
            foreach (var order in orders)
            {
                store.Insert(order);
            }

            for (var i = 0; i < orders.Count / 2; i++)
            {
                store.Delete(orders[i].Id);
            }
        }
    }

    private static double DeleteAllocation(IOrderStore store, List<CustomerOrder> orders)
    {
        var count = Math.Min(DeleteSample, orders.Count);
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < count; i++)
        {
            if (!store.Delete(orders[i].Id))
            {
                throw new InvalidOperationException($"{store.Engine} did not find order {i} to delete.");
            }
        }

        return (double)(GC.GetAllocatedBytesForCurrentThread() - before) / count;
    }

    private static string Row(string engine, StoreDurability durability, int count, long[] ticks, double insertBytes, double deleteBytes)
    {
        var sorted = (long[])ticks.Clone();
        Array.Sort(sorted);
        double At(double quantile) => sorted[Math.Min(sorted.Length - 1, (int)(quantile * sorted.Length))] * 1e6 / Stopwatch.Frequency;
        var p50 = At(0.50);
        var max = sorted[^1] * 1e6 / Stopwatch.Frequency;
        return string.Create(CultureInfo.InvariantCulture,
            $"| {durability.Label()} | {engine} | {count:N0} | {Micros(p50)} | {Micros(At(0.90))} | {Micros(At(0.99))} | {Micros(max)} | {At(0.99) / p50:0.0}× | {max / p50:0.0}× | {ResultTableWriter.FormatBytes(insertBytes)} | {ResultTableWriter.FormatBytes(deleteBytes)} |");
    }

    private static string Micros(double micros) =>
        micros >= 1000 ? string.Create(CultureInfo.InvariantCulture, $"{micros / 1000:0.00} ms") : string.Create(CultureInfo.InvariantCulture, $"{micros:0.0} µs");
}
