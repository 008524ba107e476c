using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

public class TransactionTests
{
    [Fact]
    public void A_new_database_has_a_zeroed_catalog_page_and_two_pages()
    {
        using var db = new TestDatabase();
        using var read = db.Engine.BeginRead();
        Assert.Equal(2u, read.PageCount);
        Assert.True(read.ReadPage(PageIds.Catalog).Span.IndexOfAnyExcept((byte)0) < 0);
        Assert.Equal(db.Engine.PageSize - 8, read.PagePayloadSize);
    }

    [Fact]
    public void Committed_pages_survive_close_and_reopen()
    {
        using var db = new TestDatabase();
        uint page;
        using (var tx = db.Engine.BeginWrite())
        {
            page = tx.AllocatePage();
            PageData.Stamp(tx, page, 42);
            PageData.Stamp(tx, PageIds.Catalog, 7);
            tx.Commit();
        }

        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(42, PageData.Read(read, page));
        Assert.Equal(7, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void Committed_pages_survive_a_crash_before_any_checkpoint()
    {
        using var db = new TestDatabase();
        uint page;
        using (var tx = db.Engine.BeginWrite())
        {
            page = tx.AllocatePage();
            PageData.Stamp(tx, page, 5);
            tx.Commit();
        }

        Assert.True(db.Engine.GetStatistics().WalBytes > 40);
        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(5, PageData.Read(read, page));
    }

    [Fact]
    public void A_rolled_back_transaction_leaves_no_trace()
    {
        using var db = new TestDatabase();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 1);
            tx.Commit();
        }

        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 2);
            tx.AllocatePage();
            tx.Rollback();
        }

        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 3);
            // Dispose without Commit rolls back.
        }

        using var read = db.Engine.BeginRead();
        Assert.Equal(1, PageData.Read(read, PageIds.Catalog));
        Assert.Equal(2u, read.PageCount);
    }

    [Fact]
    public void A_reader_keeps_its_snapshot_while_the_writer_commits()
    {
        using var db = new TestDatabase();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 1);
            tx.Commit();
        }

        using var before = db.Engine.BeginRead();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 2);
            tx.AllocatePage();
            tx.Commit();
        }

        db.Engine.Checkpoint();
        using var after = db.Engine.BeginRead();
        Assert.Equal(1, PageData.Read(before, PageIds.Catalog));
        Assert.Equal(2u, before.PageCount);
        Assert.Equal(2, PageData.Read(after, PageIds.Catalog));
        Assert.Equal(3u, after.PageCount);
    }

    [Fact]
    public void Memory_returned_by_ReadPage_stays_valid_while_its_reader_is_open_across_commits_and_a_checkpoint()
    {
        // Only while the reader is open: once no snapshot sees a version, its array is reused
        // for a writer's copy (docs/storage.md, "Snapshots").
        using var db = new TestDatabase();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 10);
            tx.Commit();
        }

        using var read = db.Engine.BeginRead();
        var held = read.ReadPage(PageIds.Catalog);
        for (var i = 11; i < 20; i++)
        {
            using var tx = db.Engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, i);
            tx.Commit();
        }

        db.Engine.Checkpoint();
        for (var i = 20; i < 30; i++)
        {
            using var tx = db.Engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, i);
            tx.Commit();
        }

        Assert.Equal(10, BitConverter.ToInt64(held.Span));
        Assert.Equal(29, db.Engine.Read(PageIds.Catalog, static (reader, id) => PageData.Read(reader, id)));
    }

    [Fact]
    public void Freed_pages_are_reused_and_the_file_stops_growing()
    {
        using var db = new TestDatabase();
        var pages = new List<uint>();
        using (var tx = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 10; i++)
            {
                pages.Add(tx.AllocatePage());
            }

            tx.Commit();
        }

        using (var tx = db.Engine.BeginWrite())
        {
            foreach (var page in pages)
            {
                tx.FreePage(page);
            }

            tx.Commit();
        }

        var reused = new List<uint>();
        using (var tx = db.Engine.BeginWrite())
        {
            Assert.Equal(10u, tx.FreePageCount);
            for (var i = 0; i < 10; i++)
            {
                reused.Add(tx.AllocatePage());
            }

            Assert.Equal(12u, tx.PageCount);
            Assert.All(reused, page => Assert.True(tx.ReadPage(page).Span.IndexOfAnyExcept((byte)0) < 0));
            tx.Commit();
        }

        Assert.Equal(pages.Order(), reused.Order());
    }

    [Fact]
    public void Page_zero_and_pages_past_the_end_are_refused()
    {
        using var db = new TestDatabase();
        using var tx = db.Engine.BeginWrite();
        Assert.Throws<ArgumentOutOfRangeException>(() => tx.ReadPage(PageIds.Header));
        Assert.Throws<ArgumentOutOfRangeException>(() => tx.WritePage(PageIds.Header));
        Assert.Throws<ArgumentOutOfRangeException>(() => tx.WritePage(2));
        Assert.Throws<ArgumentOutOfRangeException>(() => tx.FreePage(PageIds.Catalog));
        var page = tx.AllocatePage();
        tx.FreePage(page);
        Assert.Throws<InvalidOperationException>(() => tx.WritePage(page));
        Assert.Throws<InvalidOperationException>(() => tx.FreePage(page));
    }

    [Fact]
    public async Task A_write_transaction_may_commit_on_another_thread_after_an_await()
    {
        using var db = new TestDatabase();
        var tx = await db.Engine.BeginWriteAsync();
        PageData.Stamp(tx, PageIds.Catalog, 99);
        // The writer slot is a semaphore, not a thread-affine lock, so committing from a pool thread is fine.
        await Task.Run(() => tx.CommitAsync().AsTask());
        using var next = await db.Engine.BeginWriteAsync();
        Assert.Equal(99, PageData.Read(next, PageIds.Catalog));
    }

    [Fact]
    public void Page_size_is_chosen_at_creation_and_kept_on_reopen()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 16384 });
        Assert.Equal(16384, db.Engine.PageSize);
        db.Reopen(new StorageOptions { PageSize = 4096 });
        Assert.Equal(16384, db.Engine.PageSize);
        Assert.Equal(16384, new FileInfo(db.Path).Length / 2);
    }

    [Theory]
    [InlineData(1000)]
    [InlineData(2048)]
    [InlineData(131072)]
    [InlineData(12288)]
    public void Invalid_page_sizes_are_refused(int pageSize)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => StorageEngine.OpenInMemory(new StorageOptions { PageSize = pageSize }));
    }
}
