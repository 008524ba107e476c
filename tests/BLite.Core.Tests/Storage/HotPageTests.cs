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

    [Fact]
    public void Every_page_a_cache_holds_has_its_own_slot()
    {
        // A budget of 256 pages: 200 pages all fit the cache, and each must then be read without
        // the lock (the memo used to have an eighth of the budget's slots).
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096, CacheBudgetBytes = 256 * 4096 });
        var engine = db.Engine;
        var pages = CreatePages(engine, 200);

        using var read = engine.BeginRead();
        foreach (var (page, i) in pages.Select((page, i) => (page, i)))
        {
            Assert.Equal(i, PageData.Read(read, page));
        }

        var hitsBefore = read.UncountedMemoHits;
        foreach (var (page, i) in pages.Select((page, i) => (page, i)))
        {
            Assert.Equal(i, PageData.Read(read, page));
        }

        Assert.Equal(pages.Length, read.UncountedMemoHits - hitsBefore);
    }

    [Fact]
    public void A_commit_leaves_the_memoized_pages_it_did_not_change_in_the_memo()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var engine = db.Engine;
        var pages = CreatePages(engine, 2);
        Assert.Equal(0, engine.Read(pages[0], static (read, page) => PageData.Read(read, page)));

        PageData.Commit(engine, pages[1], 10);

        using var read = engine.BeginRead();
        Assert.Equal(0, PageData.Read(read, pages[0]));
        Assert.Equal(1, read.UncountedMemoHits);
        Assert.Equal(10, PageData.Read(read, pages[1]));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_reader_older_than_a_checkpoint_and_a_newer_one_each_read_their_own_version_through_the_memo(bool oldReaderFirst)
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var pages = CreatePages(db.Engine, 1);
        var page = pages[0];
        PageData.Commit(db.Engine, page, 1);
        var engine = db.Reopen();

        // The old reader never read the page before the commit: the checkpoint that overwrites the
        // file keeps the file's content for it in a version below the commit's.
        using var old = engine.BeginRead();
        PageData.Commit(engine, page, 2);
        Assert.Equal(2, engine.Read(page, static (read, page) => PageData.Read(read, page)));
        var checkpoints = engine.GetStatistics().Checkpoints;
        engine.Checkpoint();
        Assert.True(engine.GetStatistics().Checkpoints > checkpoints, "the checkpoint did not run");

        for (var round = 0; round < 3; round++)
        {
            if (oldReaderFirst)
            {
                Assert.Equal(1, PageData.Read(old, page));
            }

            Assert.Equal(2, engine.Read(page, static (read, page) => PageData.Read(read, page)));
            Assert.Equal(1, PageData.Read(old, page));
        }

        old.Dispose();
        Assert.Equal(2, engine.Read(page, static (read, page) => PageData.Read(read, page)));
    }

    [Fact]
    public void Pages_evicted_and_read_back_keep_each_snapshot_its_own_values()
    {
        // Eight pages of cache for forty pages: every pass evicts what the memo last held.
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096, CacheBudgetBytes = 8 * 4096, WalCheckpointThresholdBytes = 1 << 30 });
        var engine = db.Engine;
        var pages = CreatePages(engine, 40);
        using var old = engine.BeginRead();
        using (var write = engine.BeginWrite())
        {
            foreach (var (page, i) in pages.Select((page, i) => (page, i)))
            {
                PageData.Stamp(write, page, 1000 + i);
            }

            write.Commit();
        }

        var missesBefore = engine.CacheMisses;
        var hitsBefore = engine.HotPageHits + old.UncountedMemoHits;
        for (var round = 0; round < 3; round++)
        {
            foreach (var (page, i) in pages.Select((page, i) => (page, i)))
            {
                Assert.Equal(i, ReadThrice(old, page));
                Assert.Equal(1000 + i, engine.Read(page, static (read, page) => ReadThrice(read, page)));
            }
        }

        Assert.True(engine.CacheMisses > missesBefore + pages.Length, "the pages were not evicted and read back");
        Assert.True(engine.HotPageHits + old.UncountedMemoHits > hitsBefore, "no read was served by the memo");
    }

    /// <summary>
    /// The page's value, read three times by one reader and checked equal: a read from the device
    /// caches the page, the next finds it in the cache and memoizes it, the third finds the memo.
    /// </summary>
    private static long ReadThrice(IPageReader read, uint page)
    {
        var first = PageData.Read(read, page);
        Assert.Equal(first, PageData.Read(read, page));
        Assert.Equal(first, PageData.Read(read, page));
        return first;
    }

    private static uint[] CreatePages(StorageEngine engine, int count)
    {
        using var write = engine.BeginWrite();
        var pages = new uint[count];
        for (var i = 0; i < count; i++)
        {
            pages[i] = write.AllocatePage();
            PageData.Stamp(write, pages[i], i);
        }

        write.Commit();
        return pages;
    }

    private static void Commit(StorageEngine engine, long value)
    {
        using var write = engine.BeginWrite();
        PageData.Stamp(write, PageIds.Catalog, value);
        write.Commit();
    }
}
