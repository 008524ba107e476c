using System.Buffers.Binary;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// In Full mode commits become visible in flush order, possibly one at a time. Regression for a
/// bug where pruning (run whenever a reader ends while pages are pinned for an older reader)
/// dropped page versions that only a written-but-unflushed commit sees, so a reader of that
/// commit, once published alone, saw an older image of one page beside the new image of another.
/// </summary>
public class PublicationOrderTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task A_commit_published_alone_shows_all_of_its_pages_after_pruning()
    {
        var disk = new FaultDatabase();
        using var engine = disk.Open(new StorageOptions { PageSize = 4096 });
        var (a, b) = CreatePair(engine);
        using var oldReader = engine.BeginRead();
        WritePair(engine, a, b, 1);
        engine.Checkpoint(); // moves version 1 into the file and pins the old images for oldReader

        using var flushEntered = new SemaphoreSlim(0);
        using var flushRelease = new SemaphoreSlim(0);
        disk.Injector.OnFlush = device =>
        {
            if (device.EndsWith("-wal", StringComparison.Ordinal))
            {
                flushEntered.Release();
                flushRelease.Wait();
            }
        };

        var commitsBefore = engine.GetStatistics().Commits;
        var first = Task.Run(() => WritePair(engine, a, b, 2));
        var second = Task.CompletedTask;
        try
        {
            Assert.True(await flushEntered.WaitAsync(Patience), "the first commit's flush never started");
            second = Task.Run(() => WritePair(engine, a, b, 3));
            Assert.True(SpinWait.SpinUntil(() => engine.GetStatistics().Commits == commitsBefore + 2, Patience), "the second commit was never appended");

            engine.BeginRead().Dispose(); // a reader ending prunes the pinned pages
            flushRelease.Release();       // the first flush ends and publishes commit 2 alone
            Assert.True(await flushEntered.WaitAsync(Patience), "the second commit's flush never started");

            using var read = engine.BeginRead();
            Assert.Equal((2, 2), (Read(read, a), Read(read, b)));
        }
        finally
        {
            // Let every held flush go, whatever failed above, so the committers can finish.
            disk.Injector.OnFlush = null;
            flushRelease.Release(2);
        }

        await Task.WhenAll(first, second);
        using var final = engine.BeginRead();
        Assert.Equal((3, 3), (Read(final, a), Read(final, b)));
        Assert.Equal((0, 0), (Read(oldReader, a), Read(oldReader, b)));
    }

    private static (uint A, uint B) CreatePair(StorageEngine engine)
    {
        using var tx = engine.BeginWrite();
        var pair = (tx.AllocatePage(), tx.AllocatePage());
        tx.Commit();
        return pair;
    }

    private static void WritePair(StorageEngine engine, uint a, uint b, long value)
    {
        using var tx = engine.BeginWrite();
        BinaryPrimitives.WriteInt64LittleEndian(tx.WritePage(a).Span, value);
        BinaryPrimitives.WriteInt64LittleEndian(tx.WritePage(b).Span, value);
        tx.Commit();
    }

    private static long Read(IPageReader pages, uint page) => BinaryPrimitives.ReadInt64LittleEndian(pages.ReadPage(page).Span);
}
