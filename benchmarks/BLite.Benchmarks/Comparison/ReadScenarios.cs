using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Comparison;

/// <summary>Find one order by id; keys are random over the whole dataset (seeded).</summary>
[BenchmarkCategory("find-by-id")]
public class FindByIdBenchmark : ComparisonBenchmark
{
    private int _next;

    protected override int Run(IOrderStore store)
    {
        var keys = Data.LookupKeys;
        var found = store.FindById(keys[_next++ & (keys.Length - 1)]);
        return found is null ? 0 : 1;
    }
}

/// <summary>
/// The N+1 pattern: 1,000 finds by id in a loop, as an application resolving references one at a
/// time does; one operation is the whole loop.
/// </summary>
[BenchmarkCategory("find-by-id-loop-1000")]
public class FindByIdLoopBenchmark : ComparisonBenchmark
{
    public const int Lookups = 1000;

    private int _next;

    protected override int Run(IOrderStore store)
    {
        var keys = Data.LookupKeys;
        var found = 0;
        for (var i = 0; i < Lookups; i++)
        {
            found += store.FindById(keys[_next++ & (keys.Length - 1)]) is null ? 0 : 1;
        }

        return found;
    }
}

/// <summary>All orders with Status == "shipped" (about a quarter), deserialized.</summary>
public abstract class ScanStatusBenchmarkBase : ComparisonBenchmark
{
    private readonly List<CustomerOrder> _found = [];

    protected override int Run(IOrderStore store)
    {
        _found.Clear();
        return store.FindByStatus(ComparisonDataset.ScannedStatus, _found);
    }
}

/// <summary>The Status scan with no index on Status: every document is examined.</summary>
[BenchmarkCategory("scan-status")]
public class ScanStatusBenchmark : ScanStatusBenchmarkBase
{
}

/// <summary>The same scan through a secondary index on Status.</summary>
[BenchmarkCategory("scan-status-indexed")]
public class ScanStatusIndexedBenchmark : ScanStatusBenchmarkBase
{
    protected override bool IndexStatus => true;
}

/// <summary>
/// Find by id in documents carrying an extra note of 2, 8 or 64 KB (500 of them, stored beside the
/// dataset), so the cost of moving large values shows.
/// </summary>
[BenchmarkCategory("find-by-id-large")]
public class FindLargeDocumentBenchmark : ComparisonBenchmark
{
    private const int LargeDocuments = 500;
    private OrderId[] _ids = [];
    private int _next;

    [Params(2 * 1024, 8 * 1024, 64 * 1024)]
    public int PayloadBytes { get; set; }

    protected override IEnumerable<int> DocumentCounts => [1_000];

    protected override void Prepare()
    {
        var orders = Data.TakeLargeOrders(LargeDocuments, PayloadBytes);
        Store.InsertBatch(orders);
        _ids = Array.ConvertAll(orders, o => o.Id);
        new Random(ComparisonDataset.KeySeed).Shuffle(_ids);
    }

    protected override int Run(IOrderStore store)
    {
        var found = store.FindById(_ids[_next++ % _ids.Length]);
        return found is null ? 0 : 1;
    }
}
