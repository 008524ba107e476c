using BenchmarkDotNet.Attributes;
using BLite.Core.Storage;
using Microsoft.Win32.SafeHandles;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// Latency of one small transaction (one 8 KB page rewritten) next to the physical floor: a bare
/// write of the same bytes (one WAL frame) plus a flush to disk, on the same disk.
/// </summary>
[Config(typeof(FlushBoundBenchmarkConfig))]
public class CommitLatencyBenchmarks
{
    private const int PageSize = 8192;
    private const long BareFileWrap = 16L * 1024 * 1024;

    private StorageBenchmarkFiles _files = null!;
    private StorageEngine _full = null!;
    private StorageEngine _normal = null!;
    private SafeFileHandle _bare = null!;
    private byte[] _frame = null!;
    private long _bareOffset;
    private uint _fullPage;
    private uint _normalPage;

    [GlobalSetup]
    public void Setup()
    {
        _files = new StorageBenchmarkFiles();
        _full = StorageEngine.Open(_files.PathOf("full.blite"), new StorageOptions { Durability = Durability.Full, PageSize = PageSize });
        _normal = StorageEngine.Open(_files.PathOf("normal.blite"), new StorageOptions { Durability = Durability.Normal, PageSize = PageSize });
        _fullPage = AllocateOnePage(_full);
        _normalPage = AllocateOnePage(_normal);
        _bare = File.OpenHandle(_files.PathOf("bare.bin"), FileMode.Create, FileAccess.ReadWrite, FileShare.None, FileOptions.RandomAccess);
        _frame = new byte[32 + PageSize];
        Random.Shared.NextBytes(_frame);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _full.Dispose();
        _normal.Dispose();
        _bare.Dispose();
        _files.Dispose();
    }

    /// <summary>The floor: append one frame's bytes and flush them to disk.</summary>
    [Benchmark(Baseline = true)]
    public void BareWriteAndFlush()
    {
        RandomAccess.Write(_bare, _frame, _bareOffset);
        RandomAccess.FlushToDisk(_bare);
        _bareOffset = (_bareOffset + _frame.Length) % BareFileWrap;
    }

    [Benchmark]
    public void FullCommitOfOnePage() => RewritePage(_full, _fullPage);

    [Benchmark]
    public void NormalCommitOfOnePage() => RewritePage(_normal, _normalPage);

    private static void RewritePage(StorageEngine engine, uint page)
    {
        using var tx = engine.BeginWrite();
        var payload = tx.WritePage(page).Span;
        payload[0]++;
        tx.Commit();
    }

    private static uint AllocateOnePage(StorageEngine engine)
    {
        using var tx = engine.BeginWrite();
        var page = tx.AllocatePage();
        tx.Commit();
        return page;
    }
}
