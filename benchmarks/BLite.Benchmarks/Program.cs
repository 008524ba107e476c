using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Running;
using BLite.Benchmarks.Manual;

namespace BLite.Benchmarks;

/// <summary>
/// <c>manual [--documents N] [--json FILE]</c> runs the quick side-by-side mode; <c>vectors [--count N]
/// [--queries Q] [--churn]</c> measures vector search against brute force; <c>changefeed</c> what the
/// change feed costs (ChangeFeed/ChangeFeedBenchmark); <c>encryption</c> what encryption costs on
/// writes, plain and encrypted taking turns (Storage/EncryptionWriteComparison); <c>instructions ...</c> is a fixed loop for
/// counting instructions (Diagnostics/InstructionCountLoop); <c>profile ...</c> repeats one query
/// scenario for a profiler (Diagnostics/QueryProfileLoop), <c>profile scans ...</c> the status scans at scale (Diagnostics/ScanProfileLoop), <c>profile deletes ...</c> the in-memory delete at scale (Diagnostics/DeleteProfileLoop), <c>profile floor-parts</c> FindById taken apart against MemoryPack (Diagnostics/FloorPartsLoop); <c>query-overhead</c> what a small LINQ
/// query costs besides its documents (Diagnostics/QueryOverheadLoop); anything else goes
/// to BenchmarkDotNet, which finds every benchmark class in this assembly (Comparison, Storage,
/// Indexing, Serialization...), e.g. <c>-- --filter '*'</c> or <c>-- --list flat</c>.
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "manual")
        {
            return ManualMode.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == "instructions")
        {
            return Diagnostics.InstructionCountLoop.Run(args[1..]);
        }

        if (args.Length > 1 && args[0] == "profile" && args[1] == "floor-parts")
        {
            return Diagnostics.FloorPartsLoop.Run(args[2..]);
        }

        if (args.Length > 1 && args[0] == "profile" && args[1] == "two-hop-cpu")
        {
            return Diagnostics.TwoHopCpuLoop.Run(args[2..]);
        }

        if (args.Length > 1 && args[0] == "profile" && args[1] == "scans")
        {
            return Diagnostics.ScanProfileLoop.Run(args[2..]);
        }

        if (args.Length > 1 && args[0] == "profile" && args[1] == "deletes")
        {
            return Diagnostics.DeleteProfileLoop.Run(args[2..]);
        }

        if (args.Length > 0 && args[0] == "profile")
        {
            return Diagnostics.QueryProfileLoop.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == "query-overhead")
        {
            return Diagnostics.QueryOverheadLoop.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == "changefeed")
        {
            return ChangeFeed.ChangeFeedBenchmark.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == "encryption")
        {
            return Storage.EncryptionWriteComparison.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == "vectors")
        {
            return Vectors.VectorBenchmark.Run(args[1..]);
        }

        // BenchmarkDotNet builds a project per run; on a busy shared machine that takes longer than its 2-minute default.
        var config = ManualConfig.Create(DefaultConfig.Instance).WithBuildTimeout(TimeSpan.FromMinutes(10));
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, config);
        return 0;
    }
}
