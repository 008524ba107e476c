using System.Globalization;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Runs the comparison scenarios on every engine in one process (so ratios hold on a noisy
/// machine) within a fixed time budget per scenario, and collects one result per scenario,
/// durability and engine. Each store is created empty in its own directory and loaded with the
/// same seeded dataset.
/// </summary>
internal sealed partial class ManualRunner : IDisposable
{
    public const int WriterCount = 16;
    public static readonly int[] ReaderCounts = [1, 2, 4];
    public static readonly int[] LargePayloadBytes = [2 * 1024, 8 * 1024, 64 * 1024];

    private const int SampleCount = 1000;
    private const int SingleInsertPool = 4000;
    private const int BatchSize = 1000;
    private const int BatchPool = 5;
    private const int LargePool = 300;
    private const int CommitsPerWriterPerRound = 1;
    private const int MaxWriterRounds = 12;
    private const int FindsPerReaderPerRound = 64;
    private const string SerializationDurability = "none";

    private readonly ComparisonDataset _data;
    private readonly OperationTimer _timer;
    private readonly TextWriter _log;
    private readonly string _workDirectory;
    private readonly List<ManualResult> _results = [];
    private readonly EngineAgreement _agreement = new();
    private readonly CustomerOrder[] _singleInserts;
    private readonly CustomerOrder[][] _batches;
    private readonly Dictionary<int, CustomerOrder[]> _largeOrders = [];
    private readonly CustomerOrder[] _writerOrders;
    private int _storeNumber;

    public ManualRunner(int documents, TextWriter log, OperationTimer timer)
    {
        _log = log;
        _timer = timer;
        _workDirectory = Path.Combine(Path.GetTempPath(), $"blite-manual-{Environment.ProcessId}");
        _data = ComparisonDataset.Create(documents, SampleCount);
        // Every pool is drawn once and reused by every store: each store is new, so the ids are new to it.
        _singleInserts = _data.TakeFreshOrders(SingleInsertPool);
        _batches = new CustomerOrder[BatchPool][];
        for (var i = 0; i < _batches.Length; i++)
        {
            _batches[i] = _data.TakeFreshOrders(BatchSize);
        }

        foreach (var payload in LargePayloadBytes)
        {
            _largeOrders[payload] = _data.TakeLargeOrders(LargePool, payload);
        }

        _writerOrders = _data.TakeFreshOrders(WriterCount * CommitsPerWriterPerRound * MaxWriterRounds);
    }

    /// <summary>Results grouped by scenario and durability, BLite first within each group.</summary>
    public IReadOnlyList<ManualResult> Run()
    {
        // Engines take turns store by store rather than one engine after the other, so each pair of
        // figures is measured minutes closer together: this VM's fsync latency drifts from about
        // 0.1 to 5 ms between minutes, which would otherwise decide the flush ratios.
        foreach (var phase in StorePhases)
        {
            foreach (var factory in OrderStores.All)
            {
                phase(this, factory);
            }
        }

        // Last, so the JSON code the SQLite peer already ran is past tiered compilation's first tiers.
        foreach (var createCodec in OrderStores.Codecs)
        {
            RunSerialization(createCodec());
        }

        return Ordered(_results);
    }

    public void Dispose()
    {
        if (Directory.Exists(_workDirectory))
        {
            Directory.Delete(_workDirectory, recursive: true);
        }
    }

    private void RunSerialization(IOrderCodec codec)
    {
        var orders = _data.Samples;
        Record("serialize-one", codec.Engine, SerializationDurability,
            _timer.Measure(int.MaxValue, i => codec.Serialize(orders[i % orders.Length])));

        var serialized = new byte[orders.Length][];
        for (var i = 0; i < orders.Length; i++)
        {
            serialized[i] = codec.Serialize(orders[i]).ToArray();
        }

        Record("deserialize-one", codec.Engine, SerializationDurability,
            _timer.Measure(int.MaxValue, i => codec.Deserialize(serialized[i % serialized.Length])));
    }

    private static readonly Action<ManualRunner, IOrderStoreFactory>[] StorePhases =
    [
        static (runner, factory) => runner.RunBufferedStore(factory),
        static (runner, factory) => runner.RunIndexedStore(factory),
        static (runner, factory) => runner.RunFlushStore(factory),
        static (runner, factory) => runner.RunMemoryStore(factory),
    ];

    private void RunBufferedStore(IOrderStoreFactory factory)
    {
        using var store = CreatePopulated(factory, StoreDurability.OsBuffered, indexStatus: false);
        _agreement.Check("loaded store", store, _data);
        RunFindById(store);
        RunConcurrentReaders(store);
        RunScan(store, "scan-status");
        RunUpdate(store);
        RunDelete(store);
        RunInsertSingle(store);
        RunLargeDocuments(store);
        RunInsertBatch(store);
    }

    private void RunIndexedStore(IOrderStoreFactory factory)
    {
        using var store = CreatePopulated(factory, StoreDurability.OsBuffered, indexStatus: true);
        // The indexed store must answer exactly as the unindexed one did.
        _agreement.Check("loaded store", store, _data);
        RunScan(store, "scan-status-indexed");
    }

    private void RunFlushStore(IOrderStoreFactory factory)
    {
        using var store = CreatePopulated(factory, StoreDurability.FlushPerCommit, indexStatus: false);
        RunInsertSingle(store);
        RunUpdate(store);
        RunDelete(store);
        RunConcurrentWriters(store);
        RunInsertBatch(store);
    }

    private void RunMemoryStore(IOrderStoreFactory factory)
    {
        using var store = CreatePopulated(factory, StoreDurability.InMemory, indexStatus: false);
        _agreement.Check("loaded store", store, _data);
        RunFindById(store);
        RunUpdate(store);
        RunDelete(store);
        RunInsertSingle(store);
        RunInsertBatch(store);
    }

    private IOrderStore CreatePopulated(IOrderStoreFactory factory, StoreDurability durability, bool indexStatus)
    {
        var directory = Path.Combine(_workDirectory, $"{factory.Engine}-{durability.Label()}-{_storeNumber++}".ToLowerInvariant());
        var store = factory.Create(new OrderStoreOptions(directory, durability, indexStatus));
        try
        {
            _data.Populate(store);
            return store;
        }
        catch
        {
            store.Dispose();
            throw;
        }
    }

    private void Record(string scenario, string engine, string durability, Measurement measurement)
    {
        var result = new ManualResult(scenario, engine, durability, measurement.MedianNsPerOp, measurement.AllocatedBytesPerOp);
        _results.Add(result);
        _log.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {scenario,-28} {durability,-8} {engine,-14} {ResultTableWriter.FormatTime(result.MedianNsPerOp),12} {ResultTableWriter.FormatBytes(result.AllocatedBytesPerOp),10}  ({measurement.Operations} ops, {measurement.Elapsed.TotalSeconds:0.0} s)"));
    }

    private void Record(string scenario, IOrderStore store, Measurement measurement) =>
        Record(scenario, store.Engine, store.Durability.Label(), measurement);

    private static List<ManualResult> Ordered(List<ManualResult> results)
    {
        var groups = new List<(string Scenario, string Durability)>();
        foreach (var result in results)
        {
            if (!groups.Contains((result.Scenario, result.Durability)))
            {
                groups.Add((result.Scenario, result.Durability));
            }
        }

        var ordered = new List<ManualResult>(results.Count);
        foreach (var (scenario, durability) in groups)
        {
            var inGroup = results.Where(r => r.Scenario == scenario && r.Durability == durability);
            ordered.AddRange(inGroup.Where(r => r.Engine == ResultTableWriter.BLiteEngine));
            ordered.AddRange(inGroup.Where(r => r.Engine != ResultTableWriter.BLiteEngine));
        }

        return ordered;
    }
}
