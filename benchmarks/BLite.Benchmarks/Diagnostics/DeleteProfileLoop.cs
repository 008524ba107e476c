using System.Diagnostics;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Manual;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile deletes DOCUMENTS ROUNDS [blite|sqlite]</c>: the manual mode's <c>delete-single</c> on
/// in-memory stores of DOCUMENTS orders (the same adapters, settings and data): per round and
/// engine, engines alternating, it deletes every sample order one commit at a time, then puts them
/// back (untimed). Per round it prints the wall and thread CPU time per delete and the bytes each
/// allocates: the in-memory delete at 1M without the whole manual run, and a steady loop to put
/// <c>perf record</c> on.
/// </summary>
internal static class DeleteProfileLoop
{
    private const int SampleCount = 4000;

    public static int Run(string[] args)
    {
        if (args.Length < 2 || !int.TryParse(args[0], out var documents) || documents < SampleCount
            || !int.TryParse(args[1], out var rounds) || rounds < 1)
        {
            Console.Error.WriteLine($"usage: profile deletes DOCUMENTS ROUNDS [blite|sqlite] (DOCUMENTS at least {SampleCount})");
            return 2;
        }

        var engines = args.Skip(2).ToArray();
        var data = ComparisonDataset.Create(documents, SampleCount);
        AlternatingRounds.Run(data, StoreDurability.InMemory, indexStatus: false, engines, rounds, "delete-single memory", store => MeasureDeletes(store, data.Samples));
        return 0;
    }

    private static string MeasureDeletes(IOrderStore store, CustomerOrder[] samples)
    {
        var allocated = GC.GetAllocatedBytesForCurrentThread();
        var cpu = ThreadCpuClock.NowNs();
        var started = Stopwatch.GetTimestamp();
        foreach (var order in samples)
        {
            if (!store.Delete(order.Id))
            {
                throw new InvalidOperationException($"{store.Engine} did not find order {order.Id} to delete");
            }
        }

        var wall = Stopwatch.GetElapsedTime(started);
        var cpuNs = ThreadCpuClock.NowNs() - cpu;
        var bytes = GC.GetAllocatedBytesForCurrentThread() - allocated;
        foreach (var order in samples)
        {
            store.Insert(order);
        }

        return $"{samples.Length:N0} deletes: wall {wall.TotalMicroseconds / samples.Length,6:F2} µs, "
            + $"thread cpu {cpuNs / 1000.0 / samples.Length,6:F2} µs, {bytes / samples.Length:N0} B per delete";
    }
}
