namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>instructions findbyid|insert observed|plain COUNT</c> (or <c>instructions deserialize ...</c>,
/// <see cref="DeserializeInstructionLoop"/>): the operation of
/// <see cref="ObservabilityOverheadBenchmarks"/> repeated COUNT times after the same setup, for
/// counting instructions under <c>valgrind --tool=callgrind</c> (deterministic where wall-clock on a
/// shared machine is not). Two runs with different counts give the per-operation figure as
/// (I(2N) - I(N)) / N, which cancels start-up, setup and JIT. See BENCHMARKS.md, "Observability".
/// </summary>
internal static class InstructionCountLoop
{
    public static int Run(string[] args)
    {
        if (args.Length > 0 && args[0] == "deserialize")
        {
            return DeserializeInstructionLoop.Run(args[1..]);
        }

        if (args.Length != 3 || args[0] is not ("findbyid" or "insert") || args[1] is not ("observed" or "plain")
            || !int.TryParse(args[2], out var count) || count < 0)
        {
            Console.Error.WriteLine("usage: instructions findbyid|insert observed|plain COUNT");
            return 2;
        }

        var benchmark = new ObservabilityOverheadBenchmarks { Observed = args[1] == "observed" };
        benchmark.Setup();
        try
        {
            long checksum = 0;
            for (var i = 0; i < count; i++)
            {
                checksum += args[0] == "findbyid"
                    ? benchmark.FindById()?.Total is { } total ? (long)total : 0
                    : benchmark.SingleInsert().Timestamp;
            }

            Console.WriteLine($"{args[0]} {args[1]} x{count}: checksum {checksum}");
            return 0;
        }
        finally
        {
            benchmark.Cleanup();
        }
    }
}
