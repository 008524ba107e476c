using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// A short in-process job (no separate build of generated boilerplate, which is slow on a shared
/// CI machine), for CPU-bound storage operations.
/// </summary>
public sealed class StorageBenchmarkConfig : ManualConfig
{
    public StorageBenchmarkConfig()
    {
        AddJob(Job.ShortRun.WithLaunchCount(1).WithWarmupCount(2).WithIterationCount(5).WithToolchain(InProcessEmitToolchain.Instance));
        AddDiagnoser(MemoryDiagnoser.Default);
    }
}

/// <summary>
/// For operations bound by a flush to disk (milliseconds each): a fixed, small number of
/// invocations per iteration, since the pilot stage would otherwise pick thousands and make each
/// iteration last tens of seconds. Few iterations already show the ratios that matter.
/// </summary>
public sealed class FlushBoundBenchmarkConfig : ManualConfig
{
    public FlushBoundBenchmarkConfig()
    {
        AddJob(Job.ShortRun
            .WithLaunchCount(1)
            .WithWarmupCount(1)
            .WithIterationCount(8)
            .WithInvocationCount(32)
            .WithUnrollFactor(1)
            .WithToolchain(InProcessEmitToolchain.Instance));
        AddDiagnoser(MemoryDiagnoser.Default);
    }
}

/// <summary>Each invocation is already hundreds of flushed commits.</summary>
public sealed class GroupCommitBenchmarkConfig : ManualConfig
{
    public GroupCommitBenchmarkConfig()
    {
        AddJob(Job.ShortRun
            .WithLaunchCount(1)
            .WithWarmupCount(1)
            .WithIterationCount(5)
            .WithInvocationCount(1)
            .WithUnrollFactor(1)
            .WithToolchain(InProcessEmitToolchain.Instance));
        AddDiagnoser(MemoryDiagnoser.Default);
    }
}
