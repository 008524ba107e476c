using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;

namespace BLite.Benchmarks.Query.References;

/// <summary>
/// References (docs/query.md, "References and Include") against SQLite + JSON joining on an
/// indexed generated column, both in memory: 100 orders with their account (Include vs a join),
/// and the orders of the accounts of one city (two indexed hops vs an indexed join).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ReferenceBenchmarks
{
    private IReferencePeer _blite = null!;
    private IReferencePeer _sqlite = null!;
    private int _next;

    [Params(10_000)]
    public int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var data = LinkedDataset.Create(Documents);
        _blite = new BLiteReferencePeer(data);
        _sqlite = new SqliteReferencePeer(data);
        if (_blite.IncludeAccounts() != _sqlite.IncludeAccounts() || _blite.OrdersOfCity(LinkedDataset.City(3)) != _sqlite.OrdersOfCity(LinkedDataset.City(3)))
        {
            throw new InvalidOperationException("BLite and SQLite disagree on the reference scenarios.");
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _blite.Dispose();
        _sqlite.Dispose();
    }

    [BenchmarkCategory("include-customer"), Benchmark(Baseline = true, Description = "SQLite+JSON join")]
    public int SqliteInclude() => _sqlite.IncludeAccounts();

    [BenchmarkCategory("include-customer"), Benchmark(Description = "BLite Include")]
    public int BLiteInclude() => _blite.IncludeAccounts();

    [BenchmarkCategory("two-hop"), Benchmark(Baseline = true, Description = "SQLite+JSON indexed join")]
    public int SqliteTwoHop() => _sqlite.OrdersOfCity(LinkedDataset.City(_next++ % LinkedDataset.Cities));

    [BenchmarkCategory("two-hop"), Benchmark(Description = "BLite two indexed hops")]
    public int BLiteTwoHop() => _blite.OrdersOfCity(LinkedDataset.City(_next++ % LinkedDataset.Cities));
}
