using System.Diagnostics;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// <c>manual [--documents N] [--json FILE]</c>: a quick side-by-side run without BenchmarkDotNet,
/// printing a markdown table (and optionally the JSON summary) in well under a minute.
/// </summary>
internal static class ManualMode
{
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
        Console.WriteLine($"manual: {options.Documents} documents on {machine.Description}, {machine.Runtime}");
        Console.WriteLine($"manual: load average at start {MachineInfo.LoadAverage()}");

        IReadOnlyList<ManualResult> results;
        using (var runner = new ManualRunner(options.Documents, Console.Out))
        {
            results = runner.Run();
        }

        Console.WriteLine($"manual: load average at end {MachineInfo.LoadAverage()}");
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
