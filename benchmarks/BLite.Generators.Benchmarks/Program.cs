using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Running;

namespace BLite.Generators.Benchmarks;

internal static class Program
{
    private static void Main(string[] args)
    {
        // `instructions N`: N warm re-runs after an edit, for counting instructions under
        // valgrind --tool=callgrind, where wall-clock on a shared machine cannot resolve the difference.
        if (args.Length == 2 && args[0] == "instructions" && int.TryParse(args[1], out var runs))
        {
            var benchmark = new GeneratorCostBenchmarks();
            benchmark.Setup();
            for (var i = 0; i < runs; i++)
            {
                benchmark.RunAfterAnEdit();
            }

            return;
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly)
            .Run(args, ManualConfig.Create(DefaultConfig.Instance).WithBuildTimeout(TimeSpan.FromMinutes(10)));
    }
}
