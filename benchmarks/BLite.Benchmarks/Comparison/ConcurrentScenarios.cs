using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Comparison;

/// <summary>
/// Find by id from 1, 2 or 4 threads at once, each through its own session (SQLite: its own
/// connection). One invocation is 256 finds shared out among the readers, so the figure is wall
/// time per find: lower with more readers means reads scale.
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[BenchmarkCategory("find-by-id-concurrent")]
public class ConcurrentFindBenchmark : StoreBenchmarkBase
{
    private const int FindsPerInvocation = 256;
    private IOrderSession[] _sessions = [];
    private ConcurrentRounds? _rounds;

    [Params(1, 2, 4)]
    public int Readers { get; set; }

    [GlobalSetup(Target = nameof(BLite))]
    public void SetUpBLite() => SetUp(Engines.BLiteEngine.BLiteOrderStore.EngineName);

    [Benchmark(Baseline = true, OperationsPerInvoke = FindsPerInvocation)]
    public void BLite() => _rounds!.RunRound();

    [GlobalSetup(Target = nameof(SQLite))]
    public void SetUpSqlite() => SetUp(Engines.Sqlite.SqliteOrderStore.EngineName);

    [Benchmark(OperationsPerInvoke = FindsPerInvocation)]
    public void SQLite() => _rounds!.RunRound();

    protected override void Prepare()
    {
        var keys = Data.LookupKeys;
        var mask = keys.Length - 1;
        var findsPerReader = FindsPerInvocation / Readers;
        _sessions = ConcurrentSessions.Open(Store, Readers);
        _rounds = new ConcurrentRounds(Readers, (reader, round) =>
        {
            var session = _sessions[reader];
            var start = (round * FindsPerInvocation) + (reader * findsPerReader);
            for (var i = 0; i < findsPerReader; i++)
            {
                if (session.FindById(keys[(start + i) & mask]) is null)
                {
                    throw new InvalidOperationException("A stored id was not found.");
                }
            }
        });
    }

    protected override void OnCleanUp()
    {
        _rounds?.Dispose();
        ConcurrentSessions.DisposeAll(_sessions);
    }
}

/// <summary>
/// Durable single-document commits (flush per commit) from 1, 4 or 16 writer threads at once, each
/// through its own session. One invocation is 64 commits shared out among the writers; engines
/// that share one flush among concurrent committers (group commit) gain as writers are added.
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[BenchmarkCategory("durable-commit-writers")]
[InvocationCount(InvocationsPerIteration)]
public class ConcurrentCommitBenchmark : StoreBenchmarkBase
{
    private const int CommitsPerInvocation = 64;
    private const int InvocationsPerIteration = 4;
    private IOrderSession[] _sessions = [];
    private ConcurrentRounds? _rounds;
    private CustomerOrder[] _orders = [];
    private int _roundsThisIteration;

    [Params(1, 4, 16)]
    public int Writers { get; set; }

    protected override IEnumerable<StoreDurability> DurabilityLevels => [StoreDurability.FlushPerCommit];

    [GlobalSetup(Target = nameof(BLite))]
    public void SetUpBLite() => SetUp(Engines.BLiteEngine.BLiteOrderStore.EngineName);

    [GlobalSetup(Target = nameof(SQLite))]
    public void SetUpSqlite() => SetUp(Engines.Sqlite.SqliteOrderStore.EngineName);

    [IterationSetup]
    public void BeginIteration() => _roundsThisIteration = 0;

    [IterationCleanup]
    public void EndIteration() =>
        Store.DeleteBatch(Array.ConvertAll(_orders[..(_roundsThisIteration * CommitsPerInvocation)], o => o.Id));

    [Benchmark(Baseline = true, OperationsPerInvoke = CommitsPerInvocation)]
    public void BLite()
    {
        _rounds!.RunRound();
        _roundsThisIteration++;
    }

    [Benchmark(OperationsPerInvoke = CommitsPerInvocation)]
    public void SQLite()
    {
        _rounds!.RunRound();
        _roundsThisIteration++;
    }

    protected override void Prepare()
    {
        _orders = Data.TakeFreshOrders(CommitsPerInvocation * InvocationsPerIteration);
        var commitsPerWriter = CommitsPerInvocation / Writers;
        _sessions = ConcurrentSessions.Open(Store, Writers);
        _rounds = new ConcurrentRounds(Writers, (writer, _) =>
        {
            var session = _sessions[writer];
            var first = (_roundsThisIteration * CommitsPerInvocation) + (writer * commitsPerWriter);
            for (var i = 0; i < commitsPerWriter; i++)
            {
                session.Insert(_orders[first + i]);
            }
        });
    }

    protected override void OnCleanUp()
    {
        _rounds?.Dispose();
        ConcurrentSessions.DisposeAll(_sessions);
    }
}

internal static class ConcurrentSessions
{
    public static IOrderSession[] Open(IOrderStore store, int count)
    {
        var sessions = new IOrderSession[count];
        for (var i = 0; i < count; i++)
        {
            sessions[i] = store.OpenSession();
        }

        return sessions;
    }

    public static void DisposeAll(IOrderSession[] sessions)
    {
        foreach (var session in sessions)
        {
            session?.Dispose();
        }
    }
}
