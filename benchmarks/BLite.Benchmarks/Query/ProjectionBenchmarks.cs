using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Workload;
using BLite.Bson;

namespace BLite.Benchmarks.Query;

/// <summary>
/// Projections and aggregates pushed down to raw C-BSON (docs/query.md section 5) against SQLite +
/// JSON doing the same work with <c>json_extract</c>, both in memory, side by side per scenario:
/// two fields of one order by id, Id and Total of every shipped order through a Status index, and
/// the total per status over the whole collection, the distinct statuses (both engines walk their
/// Status index). BLite's full FindById is listed beside the
/// projected lookup to show what not materialising saves. The work itself lives in the peers,
/// shared with the manual mode.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ProjectionBenchmarks
{
    private SqliteProjectionPeer _sqlite = null!;
    private BLiteProjectionPeer _linq = null!;
    private BLiteProjectionPeer _prepared = null!;
    private ObjectId[] _keys = [];
    private int _next;

    [Params(10_000)]
    public int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var orders = new OrderGenerator().Generate(Documents);
        _keys = orders.Select(o => o.Id).ToArray();
        new Random(7).Shuffle(_keys);
        _sqlite = new SqliteProjectionPeer(orders);
        _linq = new BLiteProjectionPeer(orders, prepared: false);
        _prepared = new BLiteProjectionPeer(orders, prepared: true);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _sqlite.Dispose();
        _linq.Dispose();
        _prepared.Dispose();
    }

    private ObjectId NextKey() => _keys[_next++ % _keys.Length];

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public decimal SqliteProjectById() => _sqlite.ProjectById(NextKey());

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite projected")]
    public decimal BLiteProjectById() => _linq.ProjectById(NextKey());

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite Project().FindById")]
    public decimal BLitePreparedProjectById() => _prepared.ProjectById(NextKey());

    [BenchmarkCategory("find-by-id-project-2"), Benchmark(Description = "BLite whole document")]
    public decimal BLiteFindById() => _prepared.FindById(NextKey());

    [BenchmarkCategory("scan-status-project"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public decimal SqliteScanProject() => _sqlite.ScanProject();

    [BenchmarkCategory("scan-status-project"), Benchmark(Description = "BLite projected")]
    public decimal BLiteScanProject() => _prepared.ScanProject();

    [BenchmarkCategory("sum-total-by-status"), Benchmark(Baseline = true, Description = "SQLite+JSON")]
    public decimal SqliteSumByStatus() => _sqlite.SumByStatus();

    [BenchmarkCategory("sum-total-by-status"), Benchmark(Description = "BLite projected")]
    public decimal BLiteSumByStatus() => _prepared.SumByStatus();

    [BenchmarkCategory("distinct-status"), Benchmark(Baseline = true, Description = "SQLite+JSON SELECT DISTINCT")]
    public decimal SqliteDistinctStatuses() => _sqlite.DistinctStatuses();

    [BenchmarkCategory("distinct-status"), Benchmark(Description = "BLite index keys")]
    public decimal BLiteDistinctStatuses() => _prepared.DistinctStatuses();
}
