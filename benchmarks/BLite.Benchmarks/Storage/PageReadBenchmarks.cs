using BenchmarkDotNet.Attributes;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Benchmarks.Storage;

/// <summary>The per-lookup overheads the layers above pay: starting a snapshot and reading a cached page.</summary>
[Config(typeof(StorageBenchmarkConfig))]
public class PageReadBenchmarks
{
    private const int Pages = 256;

    private StorageEngine _engine = null!;
    private ReadTransaction _snapshot = null!;
    private uint[] _pages = null!;
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _engine = StorageEngine.OpenInMemory(new StorageOptions());
        _pages = new uint[Pages];
        using (var tx = _engine.BeginWrite())
        {
            for (var i = 0; i < Pages; i++)
            {
                _pages[i] = tx.AllocatePage();
                tx.WritePage(_pages[i]).Span[0] = (byte)i;
            }

            tx.Commit();
        }

        _engine.Checkpoint();
        _snapshot = _engine.BeginRead();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _snapshot.Dispose();
        _engine.Dispose();
    }

    [Benchmark]
    public int BeginReadAndDispose()
    {
        using var read = _engine.BeginRead();
        return (int)read.PageCount;
    }

    [Benchmark]
    public byte ReadCachedPage()
    {
        _next = (_next + 1) % Pages;
        return _snapshot.ReadPage(_pages[_next]).Span[0];
    }
}
