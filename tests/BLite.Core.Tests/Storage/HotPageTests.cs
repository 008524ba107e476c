using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>The lock-free memo of hot page images: a reader still sees exactly its own snapshot.</summary>
public class HotPageTests
{
    [Fact]
    public void A_reader_keeps_its_snapshot_when_another_thread_commits_between_two_memoized_reads()
    {
        using var db = new TestDatabase();
        var engine = db.Engine;
        Commit(engine, 1);

        using var old = engine.BeginRead();
        Assert.Equal(1, PageData.Read(old, PageIds.Catalog));
        var hitsBefore = old.UncountedMemoHits;
        Assert.Equal(1, PageData.Read(old, PageIds.Catalog));
        Assert.True(old.UncountedMemoHits > hitsBefore, "the second read of the same page at the same snapshot must come from the memo");

        var writer = new Thread(() => Commit(engine, 2));
        writer.Start();
        writer.Join();

        Assert.Equal(2, engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog)));
        Assert.Equal(1, PageData.Read(old, PageIds.Catalog));
        var engineHitsBefore = engine.HotPageHits;
        Assert.Equal(2, engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog)));
        Assert.True(engine.HotPageHits > engineHitsBefore, "the new snapshot's read must be memoized too");
        Assert.Equal(1, PageData.Read(old, PageIds.Catalog));
        var engineHits = engine.HotPageHits;
        var readerHits = old.UncountedMemoHits;
        old.Dispose();
        Assert.Equal(engineHits + readerHits, engine.HotPageHits);
    }

    [Fact]
    public void Readers_racing_a_stream_of_commits_see_one_consistent_value_per_snapshot()
    {
        using var db = new TestDatabase();
        var engine = db.Engine;
        Commit(engine, 0);
        const int commits = 300;

        var writer = new Thread(() =>
        {
            for (var value = 1; value <= commits; value++)
            {
                Commit(engine, value);
            }
        });
        writer.Start();

        var hitsBefore = engine.HotPageHits;
        long last = 0;
        var reads = 0;
        while (writer.IsAlive || reads == 0)
        {
            using var read = engine.BeginRead();
            var first = PageData.Read(read, PageIds.Catalog);
            var second = PageData.Read(read, PageIds.Catalog);
            Assert.Equal(first, second);
            Assert.True(first >= last, $"snapshot went back from {last} to {first}");
            last = first;
            reads++;
        }

        writer.Join();
        Assert.Equal(commits, engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog)));
        Assert.True(engine.HotPageHits > hitsBefore, "no read was served by the memo");
    }

    private static void Commit(StorageEngine engine, long value)
    {
        using var write = engine.BeginWrite();
        PageData.Stamp(write, PageIds.Catalog, value);
        write.Commit();
    }
}
