using System.Diagnostics;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Manual;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile scans DOCUMENTS ROUNDS [blite|sqlite] [indexed]</c>: the manual mode's status scan on
/// buffered stores of DOCUMENTS orders (the same adapters, settings and data), one scan per engine
/// per round, engines alternating, each scan's results let go as it ends. Per scan it prints wall
/// time, the process's CPU time (the background GC thread included), the garbage collections it
/// caused by generation, the time the runtime paused for them, and the bytes allocated per returned
/// order: what a change to the scan path needs measured at 100k or 1M without the whole manual
/// run, and a steady loop to put <c>perf record</c> on. With <c>count</c> BLite counts the matches
/// of the same filter instead (the same pages read and filtered, no order built, no collection):
/// the engine's share of the scan, steadier under load than the whole.
/// </summary>
internal static class ScanProfileLoop
{
    public static int Run(string[] args)
    {
        if (args.Length < 2 || !int.TryParse(args[0], out var documents) || documents < ManualOptions.MinDocuments
            || !int.TryParse(args[1], out var rounds) || rounds < 1)
        {
            Console.Error.WriteLine("usage: profile scans DOCUMENTS ROUNDS [blite|sqlite] [indexed] [count]");
            return 2;
        }

        var indexed = args.Contains("indexed");
        var countOnly = args.Contains("count");
        var engines = countOnly ? [BLiteOrderStore.EngineName] : args.Skip(2).Where(a => a is not "indexed" and not "count").ToArray();
        var data = ComparisonDataset.Create(documents, sampleCount: 16);
        var found = new List<CustomerOrder>();
        AlternatingRounds.Run(data, StoreDurability.OsBuffered, indexed, engines, rounds, indexed ? "scan-status-indexed" : "scan-status", store => MeasureScan(store, found, countOnly));
        return 0;
    }

    private static string MeasureScan(IOrderStore store, List<CustomerOrder> found, bool countOnly)
    {
        var process = Process.GetCurrentProcess();
        var gen0 = GC.CollectionCount(0);
        var gen1 = GC.CollectionCount(1);
        var gen2 = GC.CollectionCount(2);
        var paused = GC.GetTotalPauseDuration();
        var allocated = GC.GetAllocatedBytesForCurrentThread();
        process.Refresh();
        var cpu = process.TotalProcessorTime;
        var started = Stopwatch.GetTimestamp();

        var storage = (store as BLiteOrderStore)?.Storage;
        var (misses, readAhead) = (storage?.CacheMisses ?? 0, storage?.PagesReadAhead ?? 0);
        var thread = ThreadCpuClock.NowNs();
        var count = countOnly
            ? ((BLiteOrderStore)store).CountByStatus(ComparisonDataset.ScannedStatus)
            : store.FindByStatus(ComparisonDataset.ScannedStatus, found);
        var threadMs = (ThreadCpuClock.NowNs() - thread) / 1e6;

        var wall = Stopwatch.GetElapsedTime(started);
        process.Refresh();
        var cpuUsed = process.TotalProcessorTime - cpu;
        var bytes = GC.GetAllocatedBytesForCurrentThread() - allocated;
        var summary = $"{count:N0} orders: wall {wall.TotalMilliseconds,8:F1} ms, cpu {cpuUsed.TotalMilliseconds,8:F1} ms (thread {threadMs,8:F1}), "
            + $"gc {GC.CollectionCount(0) - gen0}/{GC.CollectionCount(1) - gen1}/{GC.CollectionCount(2) - gen2} (gen0/1/2), "
            + $"paused {(GC.GetTotalPauseDuration() - paused).TotalMilliseconds,7:F1} ms, {bytes / Math.Max(count, 1):N0} B per order";
        if (storage is not null)
        {
            summary += $", {storage.CacheMisses - misses:N0} pages read ({storage.PagesReadAhead - readAhead:N0} of them through read-ahead windows)";
        }

        found.Clear();
        return summary;
    }
}
