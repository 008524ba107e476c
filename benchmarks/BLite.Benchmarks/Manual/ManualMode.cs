using System.Diagnostics;
using BLite.Benchmarks.Engines;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// <c>manual [--documents N] [--json FILE]</c>: a quick side-by-side run without BenchmarkDotNet,
/// printing a markdown table (and optionally the JSON summary) in well under a minute.
/// </summary>
internal static class ManualMode
{
    private const int RehearsalDocuments = 200;

    public static int Run(IReadOnlyList<string> args)
    {
        if (!ManualOptions.TryParse(args, out var options, out var error))
        {
            Console.Error.WriteLine($"manual: {error}");
            Console.Error.WriteLine(ManualOptions.Usage);
            return 2;
        }

        var machine = MachineInfo.Current();
        var started = Stopwatch.GetTimestamp();
        if (options.CommitLatencyInserts > 0)
        {
            Console.WriteLine($"manual: commit latency over {options.CommitLatencyInserts} inserts on {machine.Description}, {machine.Runtime}, load average {MachineInfo.LoadAverage()}");
            CommitLatency.Run(options.CommitLatencyInserts, Console.Out, options.ProfileTails);
            Console.WriteLine($"manual: load average at end {MachineInfo.LoadAverage()}; done in {Stopwatch.GetElapsedTime(started).TotalSeconds:N1} s");
            return 0;
        }

        Console.WriteLine($"manual: {options.Documents} documents on {machine.Description}, {machine.Runtime}");
        Console.WriteLine($"manual: load average at start {MachineInfo.LoadAverage()}");
        foreach (var factory in OrderStores.All)
        {
            if (!options.Includes(factory.Engine, out var reason))
            {
                Console.WriteLine($"manual: {factory.Engine} not run: {reason}");
            }
        }

        // The first scenarios would otherwise time code that tiered compilation has not optimized
        // yet (the JIT stays busy for seconds after start-up, so no per-scenario warm-up can wait
        // it out): a rehearsal on a small dataset runs every path of every engine first, and its
        // figures are discarded.
        using (var rehearsal = new ManualRunner(Math.Min(options.Documents, RehearsalDocuments), TextWriter.Null, OperationTimer.Rehearsing(), options))
        {
            rehearsal.Run();
        }

        Console.WriteLine($"manual: rehearsal done after {Stopwatch.GetElapsedTime(started).TotalSeconds:N1} s");
        IReadOnlyList<ManualResult> results;
        using (var runner = new ManualRunner(options.Documents, Console.Out, OperationTimer.Measuring(), options))
        {
            results = runner.Run();
        }

        Console.WriteLine($"manual: load average at end {MachineInfo.LoadAverage()}");
        Console.WriteLine($"manual: {MachineInfo.MemoryPeaks()}");
        Console.WriteLine();
        ResultTableWriter.Write(Console.Out, machine, options.Documents, results);
        if (options.JsonPath is { } jsonPath)
        {
            ResultJsonWriter.Write(jsonPath, machine, options.Documents, results);
            Console.WriteLine($"JSON written to {jsonPath}");
        }

        Console.WriteLine($"manual: done in {Stopwatch.GetElapsedTime(started).TotalSeconds:N1} s");
        return 0;
    }
}
