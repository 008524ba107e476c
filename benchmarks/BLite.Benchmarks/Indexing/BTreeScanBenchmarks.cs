using BenchmarkDotNet.Attributes;
using BLite.Core.BTrees;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Benchmarks.Indexing;

/// <summary>
/// Range scan throughput: 10,000 consecutive entries from a random start, forward and
/// backward, in a tree of 1,000,000 entries. Each reported operation is one entry, so the
/// mean is the time per entry (entries per second = 1 / mean).
/// </summary>
[MemoryDiagnoser]
public class BTreeScanBenchmarks
{
    private const int Entries = 1_000_000;
    private const int ScanLength = 10_000;

    private IPageReader _reader = null!;
    private BTree _tree = null!;
    private KeyRange _range = null!;
    private StorageEngine? _engine;
    private ReadTransaction? _snapshot;

    [Params("pages", "engine")]
    public string Backend { get; set; } = "pages";

    [GlobalSetup]
    public void Setup()
    {
        var value = new byte[BTreeBenchmarkData.ValueSize];
        var random = new Random(42);
        var keys = new long[Entries];
        for (var i = 0; i < Entries; i++)
            keys[i] = random.NextInt64(0, long.MaxValue / 2) * 2;
        if (Backend == "pages")
        {
            var pages = new BenchmarkPages(8184);
            _tree = BTree.Create(pages);
            foreach (var key in keys)
                _tree.Upsert(pages, BTreeBenchmarkData.Encode(key), value);
            _reader = pages;
        }
        else
        {
            _engine = StorageEngine.OpenInMemory(new StorageOptions { Durability = Durability.InMemory });
            using (var write = _engine.BeginWrite())
            {
                _tree = BTree.Create(write);
                foreach (var key in keys)
                    _tree.Upsert(write, BTreeBenchmarkData.Encode(key), value);
                write.Commit();
            }
            _snapshot = _engine.BeginRead();
            _reader = _snapshot;
        }
        Array.Sort(keys);
        _range = KeyRange.From(BTreeBenchmarkData.Encode(keys[Entries / 3]));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _snapshot?.Dispose();
        _engine?.Dispose();
    }

    [Benchmark(OperationsPerInvoke = ScanLength)]
    public long ScanForward() => Scan(descending: false);

    [Benchmark(OperationsPerInvoke = ScanLength)]
    public long ScanBackward() => Scan(descending: true);

    private long Scan(bool descending)
    {
        var cursor = _tree.Scan(_reader, _range, descending);
        long bytes = 0;
        for (var i = 0; i < ScanLength && cursor.MoveNext(); i++)
            bytes += cursor.Key.Length + cursor.ValueSpan.Length;
        return bytes;
    }
}
