using BenchmarkDotNet.Attributes;
using BLite.Core.BTrees;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Benchmarks.Indexing;

/// <summary>
/// Point lookups of random existing keys in trees of growing size, on plain in-memory pages
/// and on the storage engine (in-memory durability, through a read snapshot). Cost should
/// follow the tree's depth, not its size.
/// </summary>
[MemoryDiagnoser]
public class BTreeLookupBenchmarks
{
    private const int LookupsPerInvoke = 1000;

    private IPageReader _reader = null!;
    private BTree _tree = null!;
    private byte[][] _lookups = [];
    private StorageEngine? _engine;
    private ReadTransaction? _snapshot;

    [Params(1_000, 100_000, 1_000_000)]
    public int Entries { get; set; }

    [Params("pages", "engine")]
    public string Backend { get; set; } = "pages";

    public int Depth { get; private set; }

    [GlobalSetup]
    public void Setup()
    {
        var keys = BTreeBenchmarkData.RandomKeys(Entries, seed: 42);
        var value = new byte[BTreeBenchmarkData.ValueSize];
        if (Backend == "pages")
        {
            var pages = new BenchmarkPages(8184);
            _tree = BTree.Create(pages);
            foreach (var key in keys)
                _tree.Insert(pages, key, value);
            _reader = pages;
        }
        else
        {
            _engine = StorageEngine.OpenInMemory(new StorageOptions { Durability = Durability.InMemory });
            using (var write = _engine.BeginWrite())
            {
                _tree = BTree.Create(write);
                foreach (var key in keys)
                    _tree.Insert(write, key, value);
                write.Commit();
            }
            _snapshot = _engine.BeginRead();
            _reader = _snapshot;
        }
        _lookups = BTreeBenchmarkData.Shuffled(keys, LookupsPerInvoke, seed: 7);
        Depth = BTreeVerifier.Verify(_reader, _tree.RootPageId).Depth;
        Console.WriteLine($"// {Backend}, {Entries} entries: depth {Depth}");
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _snapshot?.Dispose();
        _engine?.Dispose();
    }

    [Benchmark(OperationsPerInvoke = LookupsPerInvoke)]
    public int TryGet()
    {
        var found = 0;
        foreach (var key in _lookups)
        {
            if (_tree.TryGet(_reader, key, out var value))
                found += value.Length;
        }
        return found;
    }
}
