using BenchmarkDotNet.Attributes;
using BLite.Core.Storage;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// Commits per second in Full mode with 1, 4 and 16 concurrent committers, each rewriting its own
/// page. Group commit lets concurrent committers share one flush, so the time per commit should
/// fall roughly with the number of committers until the disk's bandwidth or the CPU is the limit.
/// </summary>
[Config(typeof(GroupCommitBenchmarkConfig))]
public class GroupCommitBenchmarks
{
    private const int CommitsPerInvoke = 256;

    private StorageBenchmarkFiles _files = null!;
    private StorageEngine _engine = null!;
    private uint[] _pages = null!;

    [Params(1, 4, 16)]
    public int Committers { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _files = new StorageBenchmarkFiles();
        _engine = StorageEngine.Open(_files.PathOf("group.blite"), new StorageOptions { Durability = Durability.Full });
        _pages = new uint[Committers];
        using var tx = _engine.BeginWrite();
        for (var i = 0; i < Committers; i++)
        {
            _pages[i] = tx.AllocatePage();
        }

        tx.Commit();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _engine.Dispose();
        _files.Dispose();
    }

    [Benchmark(OperationsPerInvoke = CommitsPerInvoke)]
    public void FullCommits()
    {
        var tasks = new Task[Committers];
        for (var c = 0; c < Committers; c++)
        {
            var page = _pages[c];
            var share = CommitsPerInvoke / Committers;
            tasks[c] = Task.Run(async () =>
            {
                for (var i = 0; i < share; i++)
                {
                    using var tx = await _engine.BeginWriteAsync().ConfigureAwait(false);
                    tx.WritePage(page).Span[0]++;
                    await tx.CommitAsync().ConfigureAwait(false);
                }
            });
        }

        Task.WaitAll(tasks);
    }
}
