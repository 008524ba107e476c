using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.PostgreSql;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Providers;

/// <summary>
/// What the PostgreSQL provider costs over raw Npgsql with hand-written SQL on the same jsonb
/// schema (BLite+PostgreSQL is the baseline; the target is the peer within 1.2×). Needs
/// <c>BLITE_POSTGRES</c> (the manual mode's <c>--postgresql-only</c> also measures inserts).
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class PostgreSqlProviderBenchmarks
{
    private const int Documents = 1000;

    private IOrderStore? _store;
    private ComparisonDataset? _data;
    private int _next;

    [GlobalSetup(Targets = [nameof(FindByIdBLite), nameof(ScanBLite)])]
    public void SetUpBLite() => SetUp(server => new BLitePostgreSqlOrderStoreFactory(server));

    [GlobalSetup(Targets = [nameof(FindByIdNpgsql), nameof(ScanNpgsql)])]
    public void SetUpNpgsql() => SetUp(server => new NpgsqlOrderStoreFactory(server));

    [GlobalCleanup]
    public void CleanUp()
    {
        _store?.Dispose();
        _store = null;
    }

    [Benchmark(Baseline = true), BenchmarkCategory("find-by-id")]
    public CustomerOrder? FindByIdBLite() => FindById();

    [Benchmark, BenchmarkCategory("find-by-id")]
    public CustomerOrder? FindByIdNpgsql() => FindById();

    [Benchmark(Baseline = true), BenchmarkCategory("scan-status-indexed")]
    public int ScanBLite() => Scan();

    [Benchmark, BenchmarkCategory("scan-status-indexed")]
    public int ScanNpgsql() => Scan();

    private CustomerOrder? FindById()
    {
        var keys = _data!.LookupKeys;
        return _store!.FindById(keys[_next++ & (keys.Length - 1)]);
    }

    private int Scan() => _store!.FindByStatus(ComparisonDataset.ScannedStatus, new List<CustomerOrder>());

    private void SetUp(Func<string, IOrderStoreFactory> factory)
    {
        var server = PostgreSqlServer.ConnectionString
            ?? throw new InvalidOperationException($"{PostgreSqlServer.Variable} must name a PostgreSQL server (.ci/start-postgres DIR prints one).");
        _data = ComparisonDataset.Create(Documents, sampleCount: 1000);
        _store = factory(server).Create(new OrderStoreOptions("", StoreDurability.Server, IndexStatus: true));
        _data.Populate(_store);
    }
}
