using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Engines;

namespace BLite.Benchmarks.Comparison;

/// <summary>
/// One scenario (a subclass, named by its [BenchmarkCategory]) run on every engine: each engine is
/// one benchmark method here, so every scenario gets one row per engine at the same parameters.
/// </summary>
/// <remarks>
/// BLite is the baseline of every category. Another engine joins with one [GlobalSetup(Target = ...)]
/// and one [Benchmark] method, as SQLite's and LiteDB's are written. LiteDB has no flush-per-commit
/// level: its setup refuses that durability, so its row there reads NA.
/// </remarks>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public abstract class ComparisonBenchmark : StoreBenchmarkBase
{
    [GlobalSetup(Target = nameof(BLite))]
    public void SetUpBLite() => SetUp(Engines.BLiteEngine.BLiteOrderStore.EngineName);

    [Benchmark(Baseline = true)]
    public int BLite() => Run(Store);

    [GlobalSetup(Target = nameof(SQLite))]
    public void SetUpSqlite() => SetUp(Engines.Sqlite.SqliteOrderStore.EngineName);

    [Benchmark]
    public int SQLite() => Run(Store);

    [GlobalSetup(Target = nameof(LiteDB))]
    public void SetUpLiteDb() => SetUp(Engines.LiteDb.LiteDbOrderStore.EngineName);

    [Benchmark]
    public int LiteDB() => Run(Store);

    /// <summary>One operation of the scenario; returns something derived from its result so it cannot be elided.</summary>
    protected abstract int Run(IOrderStore store);
}

/// <summary>
/// A scenario that changes the store: each iteration runs a fixed number of operations
/// (subclasses set [InvocationCount]) over prepared inputs, and the iteration's changes are undone
/// outside the measurement, so every iteration sees the same database.
/// </summary>
public abstract class MutatingComparisonBenchmark : ComparisonBenchmark
{
    [IterationSetup]
    public void BeginIteration() => OnIterationStart();

    [IterationCleanup]
    public void EndIteration() => OnIterationEnd();

    protected abstract void OnIterationStart();

    protected abstract void OnIterationEnd();
}
