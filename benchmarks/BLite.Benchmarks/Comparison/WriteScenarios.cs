using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Comparison;

/// <summary>Insert one new order into the loaded database, in its own transaction.</summary>
public abstract class InsertBenchmarkBase : MutatingComparisonBenchmark
{
    public const int OperationsPerIteration = 200;
    private CustomerOrder[] _orders = [];
    private int _next;

    protected abstract CustomerOrder[] CreateOrders(int count);

    protected override void Prepare() => _orders = CreateOrders(OperationsPerIteration);

    protected override void OnIterationStart() => _next = 0;

    protected override void OnIterationEnd() => Store.DeleteBatch(Array.ConvertAll(_orders[.._next], o => o.Id));

    protected override int Run(IOrderStore store)
    {
        store.Insert(_orders[_next++]);
        return _next;
    }
}

/// <summary>Insert one new order (1–2 KB) at each durability level.</summary>
[BenchmarkCategory("insert-single")]
[InvocationCount(OperationsPerIteration)]
public class InsertSingleBenchmark : InsertBenchmarkBase
{
    protected override IEnumerable<StoreDurability> DurabilityLevels => AllDurabilityLevels;

    protected override CustomerOrder[] CreateOrders(int count) => Data.TakeFreshOrders(count);
}

/// <summary>Insert one new order carrying an extra note of 2, 8 or 64 KB, OS-buffered.</summary>
[BenchmarkCategory("insert-large")]
[InvocationCount(OperationsPerIteration)]
public class InsertLargeDocumentBenchmark : InsertBenchmarkBase
{
    [Params(2 * 1024, 8 * 1024, 64 * 1024)]
    public int PayloadBytes { get; set; }

    protected override IEnumerable<int> DocumentCounts => [1_000];

    protected override CustomerOrder[] CreateOrders(int count) => Data.TakeLargeOrders(count, PayloadBytes);
}

/// <summary>Insert 1,000 new orders in one transaction.</summary>
[BenchmarkCategory("insert-batch-1000")]
[InvocationCount(BatchesPerIteration)]
public class InsertBatchBenchmark : MutatingComparisonBenchmark
{
    public const int BatchSize = 1000;
    private const int BatchesPerIteration = 2;
    private CustomerOrder[][] _batches = [];
    private int _next;

    protected override IEnumerable<StoreDurability> DurabilityLevels => AllDurabilityLevels;

    protected override void Prepare()
    {
        _batches = new CustomerOrder[BatchesPerIteration][];
        for (var i = 0; i < _batches.Length; i++)
        {
            _batches[i] = Data.TakeFreshOrders(BatchSize);
        }
    }

    protected override void OnIterationStart() => _next = 0;

    protected override void OnIterationEnd()
    {
        for (var i = 0; i < _next; i++)
        {
            Store.DeleteBatch(Array.ConvertAll(_batches[i], o => o.Id));
        }
    }

    protected override int Run(IOrderStore store)
    {
        store.InsertBatch(_batches[_next++]);
        return _next;
    }
}

/// <summary>Replace one stored order (random over a seeded sample of the dataset) in its own transaction.</summary>
[BenchmarkCategory("update-single")]
public class UpdateSingleBenchmark : ComparisonBenchmark
{
    private int _next;

    protected override IEnumerable<StoreDurability> DurabilityLevels => AllDurabilityLevels;

    protected override int Run(IOrderStore store)
    {
        var samples = Data.Samples;
        var order = samples[_next++ % samples.Length];
        order.Shipping.EstimatedDelivery = order.Shipping.EstimatedDelivery.AddHours(1);
        return store.Update(order) ? 1 : 0;
    }
}

/// <summary>Delete one stored order (distinct random ones) in its own transaction; re-inserted between iterations.</summary>
[BenchmarkCategory("delete-single")]
[InvocationCount(OperationsPerIteration)]
public class DeleteSingleBenchmark : MutatingComparisonBenchmark
{
    private const int OperationsPerIteration = 200;
    private int _next;

    protected override IEnumerable<StoreDurability> DurabilityLevels => AllDurabilityLevels;

    protected override void OnIterationStart() => _next = 0;

    protected override void OnIterationEnd() => Store.InsertBatch(Data.Samples[.._next]);

    protected override int Run(IOrderStore store) => store.Delete(Data.Samples[_next++].Id) ? 1 : 0;
}
