using System.Globalization;
using System.Text.Json;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Runs the comparison scenarios on every engine in one process within a fixed time budget per
/// scenario and engine, and collects one result per scenario, durability and engine. Each store is
/// created empty in its own directory and loaded with the same seeded dataset; the engines of a
/// scenario are measured in alternating turns, so a burst of load on this shared machine weighs
/// on every engine's figure alike and the ratios hold.
/// </summary>
internal sealed partial class ManualRunner : IDisposable
{
    public const int WriterCount = 16;
    public static readonly int[] ReaderCounts = [1, 2, 4];
    public static readonly int[] LargePayloadBytes = [2 * 1024, 8 * 1024, 64 * 1024];

    private const int SampleCount = 1000;
    private const int SingleInsertPool = 4000;
    private const int BatchSize = 1000;
    // Enough batches that one garbage collection or fsync stall inside a sample cannot decide the median.
    private const int BatchPool = 16;
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
    private readonly int _documents;
    private readonly bool _postgreSqlOnly;
    private int _storeNumber;

    public ManualRunner(int documents, TextWriter log, OperationTimer timer, bool postgreSqlOnly)
    {
        _postgreSqlOnly = postgreSqlOnly;
        _log = log;
        _timer = timer;
        _documents = documents;
        _workDirectory = Path.Combine(Path.GetTempPath(), $"blite-manual-{Environment.ProcessId}");
        _data = ComparisonDataset.Create(documents, SampleCount);
        // Every pool is drawn once and reused by every store: each store is new, so the ids are new
        // to it, and each store's sampler consumes the pool from index 0 on its own.
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
        if (_postgreSqlOnly)
        {
            RunPostgreSqlStores();
            return Ordered(_results);
        }

        RunBufferedStores();
        RunIndexedStores();
        RunFlushStores();
        RunMemoryStores();
        RunQueries(_documents);
        RunPostgreSqlStores();
        // Last, so the JSON code the SQLite peer already ran is past tiered compilation's first tiers.
        RunSerialization();
        return Ordered(_results);
    }

    public void Dispose()
    {
        if (Directory.Exists(_workDirectory))
        {
            Directory.Delete(_workDirectory, recursive: true);
        }
    }

    // Every engine's store of a phase is open at once so that each scenario can measure the
    // engines in alternating turns (see OperationTimer.MeasureInterleaved).
    private void RunBufferedStores()
    {
        using var stores = OpenPopulated(StoreDurability.OsBuffered, indexStatus: false);
        CheckAgreement(stores);
        RunFindById(stores);
        RunConcurrentReaders(stores);
        RunScan(stores, "scan-status");
        RunUpdate(stores);
        RunDelete(stores);
        RunInsertSingle(stores);
        RunLargeDocuments(stores);
        RunInsertBatch(stores);
    }

    private void RunIndexedStores()
    {
        using var stores = OpenPopulated(StoreDurability.OsBuffered, indexStatus: true);
        // The indexed stores must answer exactly as the unindexed ones did.
        CheckAgreement(stores);
        RunScan(stores, "scan-status-indexed");
    }

    private void RunFlushStores()
    {
        using var stores = OpenPopulated(StoreDurability.FlushPerCommit, indexStatus: false);
        RunInsertSingle(stores);
        RunUpdate(stores);
        RunDelete(stores);
        RunConcurrentWriters(stores);
        RunInsertBatch(stores);
    }

    private void RunMemoryStores()
    {
        using var stores = OpenPopulated(StoreDurability.InMemory, indexStatus: false);
        CheckAgreement(stores);
        RunFindById(stores);
        RunUpdate(stores);
        RunDelete(stores);
        RunInsertSingle(stores);
        RunInsertBatch(stores);
    }

    private void RunSerialization()
    {
        var codecs = new IOrderCodec[OrderStores.Codecs.Count];
        for (var i = 0; i < codecs.Length; i++)
        {
            codecs[i] = OrderStores.Codecs[i]();
        }

        var orders = _data.Samples;
        foreach (var codec in codecs)
        {
            CheckRoundTrip(codec, orders);
        }

        Compare("serialize-one", SerializationDurability, codecs, codec => codec.Engine,
            codec => _timer.Operations(int.MaxValue, i => codec.Serialize(orders[i % orders.Length])));

        Compare("deserialize-one", SerializationDurability, codecs, codec => codec.Engine, codec =>
        {
            var serialized = new byte[orders.Length][];
            for (var i = 0; i < orders.Length; i++)
            {
                serialized[i] = codec.Serialize(orders[i]).ToArray();
            }

            return _timer.Operations(int.MaxValue, i => codec.Deserialize(serialized[i % serialized.Length]));
        });
    }

    /// <summary>
    /// Every codec must give back each sample order whole (id, dates, decimals, lists) before its
    /// figures count: a codec that drops a field would be fast for the wrong reason.
    /// </summary>
    private static void CheckRoundTrip(IOrderCodec codec, IReadOnlyList<CustomerOrder> orders)
    {
        foreach (var order in orders)
        {
            var expected = JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder);
            var back = codec.Deserialize(codec.Serialize(order).ToArray());
            var actual = JsonSerializer.Serialize(back, OrderJsonContext.Default.CustomerOrder);
            if (back.Id != order.Id || actual != expected)
            {
                throw new InvalidOperationException(
                    $"{codec.Engine} does not round-trip order {order.Id}:{Environment.NewLine}{expected}{Environment.NewLine}{actual}");
            }
        }
    }

    private void CheckAgreement(IReadOnlyList<IOrderStore> stores)
    {
        foreach (var store in stores)
        {
            _agreement.Check("loaded store", store, _data);
        }
    }

    private DisposableList<IOrderStore> OpenPopulated(StoreDurability durability, bool indexStatus)
    {
        var stores = new DisposableList<IOrderStore>();
        try
        {
            foreach (var factory in OrderStores.Offering(durability))
            {
                stores.Add(CreatePopulated(factory, durability, indexStatus));
            }

            return stores;
        }
        catch
        {
            stores.Dispose();
            throw;
        }
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

    /// <summary>
    /// Measures one scenario on every store, the engines taking turns, and records each engine's
    /// figure; returns the measurements in store order.
    /// </summary>
    private Measurement[] Compare(string scenario, IReadOnlyList<IOrderStore> stores, Func<IOrderStore, Sampler> createSampler) =>
        Compare(scenario, stores[0].Durability.Label(), stores, store => store.Engine, createSampler);

    /// <summary>The same for any contenders (stores or codecs), each named by its engine.</summary>
    private Measurement[] Compare<TContender>(
        string scenario, string durability, IReadOnlyList<TContender> contenders, Func<TContender, string> engineOf, Func<TContender, Sampler> createSampler)
    {
        var samplers = new Sampler[contenders.Count];
        for (var i = 0; i < samplers.Length; i++)
        {
            samplers[i] = createSampler(contenders[i]);
        }

        var measurements = _timer.MeasureInterleaved(samplers);
        for (var i = 0; i < measurements.Length; i++)
        {
            Record(scenario, engineOf(contenders[i]), durability, measurements[i]);
        }

        return measurements;
    }

    private void Record(string scenario, string engine, string durability, Measurement measurement)
    {
        var result = new ManualResult(scenario, engine, durability, measurement.MedianNsPerOp, measurement.AllocatedBytesPerOp);
        _results.Add(result);
        _log.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {scenario,-28} {durability,-8} {engine,-14} {ResultTableWriter.FormatTime(result.MedianNsPerOp),12} {ResultTableWriter.FormatBytes(result.AllocatedBytesPerOp),10}  ({measurement.Operations} ops in {measurement.Turns} turns, {measurement.Elapsed.TotalSeconds:0.0} s{ThreadCpu(measurement)})"));
    }

    private static string ThreadCpu(Measurement measurement) => measurement.ThreadCpuNsPerOp is { } cpu
        ? ", client CPU " + ResultTableWriter.FormatTime(cpu) + "/op"
        : "";

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
            ordered.AddRange(inGroup.Where(r => ResultTableWriter.IsBLite(r.Engine)));
            ordered.AddRange(inGroup.Where(r => !ResultTableWriter.IsBLite(r.Engine)));
        }

        return ordered;
    }
}
