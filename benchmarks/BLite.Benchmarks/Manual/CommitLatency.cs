using System.Diagnostics;
using System.Globalization;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// <c>manual --commit-latency N</c>: the distribution of single-insert commit latency over N
/// inserts into a new store, per engine, at the <c>buffered</c> and <c>flush</c> levels. A median
/// hides the commit that pays for a checkpoint; p90, p99 and the maximum show it. BLite and SQLite
/// insert the same seeded orders in alternating blocks, so a burst of load on a shared machine
/// lands on both, and so does the machine's floor (<see cref="MachineFloor"/>): an operation of
/// the BLite median's cost that does no I/O and allocates nothing; at <c>flush</c> also the
/// device's (<see cref="DeviceFloor"/>): a bare 8 KB write and flush. Also reports managed bytes
/// allocated per insert and per delete (the committing thread's), the garbage collections that ran
/// during each engine's inserts, and what the slowest commits waited for
/// (<see cref="CommitTailProfile"/>), BLite's commits by frames appended (a split's against a
/// plain insert's) and where the slow commits fall in the run; <c>--profile-tails</c> adds the
/// slowest 20 one by one.
/// </summary>
internal static class CommitLatency
{
    private const int Block = 500;
    private const int WarmUpInserts = 3000;
    private const int WarmUpRound = 500;
    private static readonly TimeSpan WarmUpMinimum = TimeSpan.FromSeconds(0.5);
    private static readonly TimeSpan WarmUpMaximum = TimeSpan.FromSeconds(15);
    private const int DeleteSample = 2000;
    private static readonly string[] Engines = ["BLite", "SQLite"];

    /// <summary>At <c>flush</c> every insert waits for an fsync (75 µs to several ms on a shared VM), so that level runs at most this many.</summary>
    private const int MaxFlushInserts = 10_000;

    public static void Run(int inserts, TextWriter output, bool profileTails = false)
    {
        BLite.Core.Diagnostics.CommitPhaseClock.Enabled = profileTails;
        var allOrders = new OrderGenerator(seed: 1515).Generate(inserts);
        var warmUp = new OrderGenerator(seed: 1516).Generate(WarmUpInserts);
        var directory = Path.Combine(Path.GetTempPath(), $"blite-latency-{Environment.ProcessId}");
        var rows = new List<string>();
        var causes = new StringWriter();
        var slowest = new StringWriter();
        var frames = new StringWriter();
        var positions = new StringWriter();
        try
        {
            foreach (var durability in new[] { StoreDurability.OsBuffered, StoreDurability.FlushPerCommit })
            {
                var orders = durability == StoreDurability.FlushPerCommit && allOrders.Count > MaxFlushInserts ? allOrders.GetRange(0, MaxFlushInserts) : allOrders;
                var count = orders.Count;
                var floor = new MachineFloor();
                floor.Calibrate(WarmUp(directory, durability, warmUp, floor));
                var latencies = Engines.ToDictionary(engine => engine, _ => new long[count]);
                var allocated = Engines.ToDictionary(engine => engine, _ => 0L);
                var collections = Engines.ToDictionary(engine => engine, _ => new int[3]);
                var stores = Engines.Select((engine, i) => OrderStores.Get(engine).Create(
                    new OrderStoreOptions(Path.Combine(directory, $"{engine}-{durability.Label()}").ToLowerInvariant(), durability, IndexStatus: false))).ToArray();
                var probes = stores.ToDictionary(store => store.Engine, store => new CommitTailProfile((store as BLiteOrderStore)?.Storage, count));
                var floorTimes = new long[count];
                using var floorProbe = new CommitTailProfile(null, count);
                using var device = durability == StoreDurability.FlushPerCommit ? new DeviceFloor(Path.Combine(directory, "device")) : null;
                var deviceTimes = new long[count];
                using var deviceProbe = new CommitTailProfile(null, count);
                try
                {
                    for (var start = 0; start < count; start += Block)
                    {
                        var end = Math.Min(count, start + Block);
                        foreach (var store in stores)
                        {
                            var times = latencies[store.Engine];
                            var probe = probes[store.Engine];
                            var before = GC.GetAllocatedBytesForCurrentThread();
                            var collected = collections[store.Engine];
                            for (var generation = 0; generation < collected.Length; generation++)
                            {
                                collected[generation] -= GC.CollectionCount(generation);
                            }

                            for (var i = start; i < end; i++)
                            {
                                probe.Before();
                                var began = Stopwatch.GetTimestamp();
                                store.Insert(orders[i]);
                                times[i] = Stopwatch.GetTimestamp() - began;
                                probe.After(i);
                            }

                            allocated[store.Engine] += GC.GetAllocatedBytesForCurrentThread() - before;
                            for (var generation = 0; generation < collected.Length; generation++)
                            {
                                collected[generation] += GC.CollectionCount(generation);
                            }
                        }

                        TimeBlock(floor.Run, start, end, floorTimes, floorProbe);
                        if (device is not null)
                        {
                            TimeBlock(device.Run, start, end, deviceTimes, deviceProbe);
                        }
                    }

                    foreach (var store in stores)
                    {
                        var deleteBytes = DeleteAllocation(store, orders);
                        rows.Add(Row(store.Engine, durability, count, latencies[store.Engine], (double)allocated[store.Engine] / count, deleteBytes, collections[store.Engine]));
                        probes[store.Engine].WriteRows(store.Engine, durability.Label(), latencies[store.Engine], causes);
                        probes[store.Engine].WriteFrameRows(durability.Label(), latencies[store.Engine], frames);
                        positions.WriteLine(probes[store.Engine].PositionRow(store.Engine, durability.Label(), latencies[store.Engine]));
                        if (profileTails)
                        {
                            probes[store.Engine].WriteSlowest(store.Engine, durability.Label(), latencies[store.Engine], slowest);
                            probes[store.Engine].WritePhases(durability.Label(), latencies[store.Engine], slowest);
                        }

                        output.WriteLine($"  commit-latency {durability.Label(),-8} {store.Engine,-7} done");
                    }

                    rows.Add(Row($"{MachineFloor.Name} ({floor.Copies} × 4 KB copy)", durability, count, floorTimes, null, null, null));
                    floorProbe.WriteRows(MachineFloor.Name, durability.Label(), floorTimes, causes);
                    positions.WriteLine(floorProbe.PositionRow(MachineFloor.Name, durability.Label(), floorTimes));
                    if (profileTails)
                    {
                        floorProbe.WriteSlowest(MachineFloor.Name, durability.Label(), floorTimes, slowest);
                    }

                    if (device is not null)
                    {
                        rows.Add(Row($"{DeviceFloor.Name} (8 KB write + flush)", durability, count, deviceTimes, null, null, null));
                        deviceProbe.WriteRows(DeviceFloor.Name, durability.Label(), deviceTimes, causes);
                        positions.WriteLine(deviceProbe.PositionRow(DeviceFloor.Name, durability.Label(), deviceTimes));
                        if (profileTails)
                        {
                            deviceProbe.WriteSlowest(DeviceFloor.Name, durability.Label(), deviceTimes, slowest);
                        }
                    }
                }
                finally
                {
                    foreach (var store in stores)
                    {
                        store.Dispose();
                        probes[store.Engine].Dispose();
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
        output.WriteLine("| Durability | Engine | Inserts | p50 | p90 | p99 | max | p99 / p50 | max / p50 | Allocated per insert | Allocated per delete | Collections (gen0/1/2) |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var row in rows)
        {
            output.WriteLine(row);
        }

        output.WriteLine();
        output.WriteLine($"Tail causes: each commit under the first cause that explains at least half of its wall time (\"From\": the fastest commit in the set; {(ThreadCpuClock.IsAvailable && ThreadUsage.IsAvailable ? "CPU time, switches and faults per thread from the OS" : "no per-thread CPU time on this OS: off-CPU causes are not told apart")}):");
        output.WriteLine();
        output.WriteLine(CommitTailProfile.TableHeader);
        output.Write(causes.ToString());
        output.WriteLine();
        output.WriteLine("BLite commits by page frames appended to the log (1: the document fit its leaf; more: a split), against 3× the median of all commits at that level:");
        output.WriteLine();
        output.WriteLine(CommitTailProfile.FrameTableHeader);
        output.Write(frames.ToString());
        output.WriteLine();
        output.WriteLine("Where the commits above 3× the median fall (the first 2% of a new store's commits, against the rest):");
        output.WriteLine();
        output.WriteLine(CommitTailProfile.PositionTableHeader);
        output.Write(positions.ToString());
        if (profileTails)
        {
            output.WriteLine();
            output.Write(slowest.ToString());
        }
    }

    private static void TimeBlock(Action operation, int start, int end, long[] times, CommitTailProfile probe)
    {
        for (var i = start; i < end; i++)
        {
            probe.Before();
            var began = Stopwatch.GetTimestamp();
            operation();
            times[i] = Stopwatch.GetTimestamp() - began;
            probe.After(i);
        }
    }

    private static long Median(ReadOnlySpan<long> ticks)
    {
        var sorted = ticks.ToArray();
        Array.Sort(sorted);
        return sorted[sorted.Length / 2];
    }

    /// <summary>
    /// Inserts and deletes in both engines (and runs the floor) until the JIT has gone quiet: a
    /// fixed few thousand inserts end before tiered compilation has replaced the first code, and
    /// the first tenth of the timed run then held about a third of its slowest 1%. Returns the
    /// median of the first engine's inserts in the last round, the floor's target cost.
    /// </summary>
    private static long WarmUp(string directory, StoreDurability durability, List<CustomerOrder> orders, MachineFloor floor)
    {
        var stores = Engines.Select(engine => OrderStores.Get(engine).Create(
            new OrderStoreOptions(Path.Combine(directory, $"warm-{engine}-{durability.Label()}").ToLowerInvariant(), durability, IndexStatus: false))).ToArray();
        try
        {
            var started = Stopwatch.GetTimestamp();
            var jit = new JitWatch();
            var lastRound = new long[WarmUpRound];
            for (var round = 0; round < orders.Count / WarmUpRound || !jit.IsWarm(started, WarmUpMinimum, WarmUpMaximum); round++)
            {
                var chunk = orders.GetRange(round % (orders.Count / WarmUpRound) * WarmUpRound, WarmUpRound);
                foreach (var store in stores)
                {
                    for (var i = 0; i < chunk.Count; i++)
                    {
                        var began = Stopwatch.GetTimestamp();
                        store.Insert(chunk[i]);
                        if (store == stores[0])
                        {
                            lastRound[i] = Stopwatch.GetTimestamp() - began;
                        }
                    }

                    foreach (var order in chunk)
                    {
                        store.Delete(order.Id);
                    }
                }

                for (var i = 0; i < WarmUpRound; i++)
                {
                    floor.Run();
                }
            }

            return Median(lastRound);
        }
        finally
        {
            foreach (var store in stores)
            {
                store.Dispose();
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

    /// <param name="collections">Garbage collections that ran during the engine's timed inserts, per generation (a gen2 collection counts in all three).</param>
    private static string Row(string engine, StoreDurability durability, int count, long[] ticks, double? insertBytes, double? deleteBytes, int[]? collections)
    {
        var sorted = (long[])ticks.Clone();
        Array.Sort(sorted);
        double At(double quantile) => sorted[Math.Min(sorted.Length - 1, (int)(quantile * sorted.Length))] * 1e6 / Stopwatch.Frequency;
        var p50 = At(0.50);
        var max = sorted[^1] * 1e6 / Stopwatch.Frequency;
        return string.Create(CultureInfo.InvariantCulture,
            $"| {durability.Label()} | {engine} | {count:N0} | {Micros(p50)} | {Micros(At(0.90))} | {Micros(At(0.99))} | {Micros(max)} | {At(0.99) / p50:0.0}× | {max / p50:0.0}× | {Bytes(insertBytes)} | {Bytes(deleteBytes)} | {(collections is null ? "" : string.Join('/', collections))} |");
    }

    private static string Bytes(double? bytes) => bytes is { } value ? ResultTableWriter.FormatBytes(value) : "";

    private static string Micros(double micros) =>
        micros >= 1000 ? string.Create(CultureInfo.InvariantCulture, $"{micros / 1000:0.00} ms") : string.Create(CultureInfo.InvariantCulture, $"{micros:0.0} µs");
}
