using BLite.Bson;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A commit that only extends the file does not write page 0 (docs/format.md, "Page count"):
/// the count is rebuilt from the pages the commits wrote. These tests crash, tear and reuse
/// pages before any checkpoint could have written it down, and check that every open, writer
/// or read-only, counts exactly the pages its snapshot has.
/// </summary>
public class PageCountRecoveryTests
{
    private const int PageSize = 4096;
    private static readonly int FrameSize = WalFormat.FrameSize(PageSize);

    private static StorageOptions Options(Durability durability = Durability.Full) => new() { PageSize = PageSize, Durability = durability };

    [Theory]
    [InlineData(Durability.Full)]
    [InlineData(Durability.Normal)]
    public void Pages_added_before_a_crash_are_counted_after_recovery(Durability durability)
    {
        using var db = new TestDatabase(Options(durability));
        var pages = new List<uint>();
        for (var i = 0; i < 20; i++)
        {
            var walEnd = db.Engine.WalEnd;
            pages.Add(AllocateAndStamp(db.Engine, 100 + i));

            // The scenario: one frame, the new page; page 0 did not travel with it.
            Assert.Equal(FrameSize, db.Engine.WalEnd - walEnd);
        }

        Assert.True(StoredPageCount(db.Engine) < 22, "page 0 should lag the pages the commits added");

        db.CrashAndReopen();

        Assert.Equal(20, db.Engine.RecoveredTransactions);
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(22u, read.PageCount);
            for (var i = 0; i < pages.Count; i++)
            {
                Assert.Equal(100 + i, PageData.Read(read, pages[i]));
            }
        }

        // A page allocated now lies past the recovered ones, not over one of them.
        Assert.Equal(22u, AllocateAndStamp(db.Engine, 500));
        Assert.True(db.Engine.Verify().IsValid);
    }

    [Fact]
    public void Documents_inserted_through_leaf_splits_survive_a_crash_before_any_checkpoint()
    {
        using var dir = new TempDirectory();
        var path = Path.Combine(dir.Path, "splits.blite");
        var options = new StorageOptions { Durability = Durability.Normal };
        var database = DocumentDatabase.Open(path, options);
        var items = database.GetCollection("items");
        items.Insert(new BsonDocument { ["_id"] = -1, ["text"] = "first" });
        var storedAfterFirst = StoredPageCount(database.Storage);
        var splitCommits = 0;
        for (var i = 0; i < 300; i++)
        {
            var walEnd = database.Storage.WalEnd;
            items.Insert(new BsonDocument { ["_id"] = i, ["text"] = new string((char)('a' + (i % 26)), 1200) });
            splitCommits += database.Storage.WalEnd - walEnd > WalFormat.FrameSize(database.Storage.PageSize) ? 1 : 0;
        }

        uint pageCount;
        using (var read = database.Storage.BeginRead())
        {
            pageCount = read.PageCount;
        }

        // The splits added pages, and page 0 (its count) travelled with none of them.
        Assert.True(splitCommits >= 30, $"only {splitCommits} commits split a leaf");
        Assert.True(pageCount >= storedAfterFirst + 30, $"{pageCount} pages against {storedAfterFirst}");
        Assert.Equal(storedAfterFirst, StoredPageCount(database.Storage));
        database.Storage.CloseWithoutCheckpoint();
        database.Dispose();

        using var reopened = DocumentDatabase.Open(path, options);
        Assert.True(reopened.Storage.RecoveredTransactions >= 300);
        using (var read = reopened.Storage.BeginRead())
        {
            Assert.Equal(pageCount, read.PageCount);
        }

        Assert.Equal(301, reopened.GetCollection("items").Count());
        var report = reopened.Verify();
        Assert.True(report.IsValid, string.Join("; ", report.Issues));
    }

    [Fact]
    public void A_torn_last_commit_leaves_the_count_of_the_commits_before_it()
    {
        using var db = new TestDatabase(Options());
        for (var i = 0; i < 5; i++)
        {
            AllocateAndStamp(db.Engine, 10 + i);
        }

        var tornAt = db.Engine.WalEnd;
        using (var write = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 3; i++)
            {
                PageData.Stamp(write, write.AllocatePage(), 20 + i);
            }

            write.Commit();
        }

        Assert.Equal(tornAt + (3 * FrameSize), db.Engine.WalEnd);
        db.Engine.CloseWithoutCheckpoint();

        // The last frame (the commit frame of the three-page commit) is torn: recovery drops that commit.
        FileBytes.Flip(db.WalPath, tornAt + (2 * FrameSize) + WalFormat.FrameHeaderSize + 100);
        db.Reopen();

        Assert.Equal(5, db.Engine.RecoveredTransactions);
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(7u, read.PageCount);
            Assert.Equal(14, PageData.Read(read, 6));
        }

        // The torn commit's page ids are handed out again.
        Assert.Equal(7u, AllocateAndStamp(db.Engine, 30));
    }

    [Fact]
    public void Pages_freed_and_reused_keep_the_count_and_the_free_list_across_a_crash()
    {
        using var db = new TestDatabase(Options(Durability.Normal));
        var pages = new List<uint>();
        using (var write = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 10; i++)
            {
                var page = write.AllocatePage();
                PageData.Stamp(write, page, i);
                pages.Add(page);
            }

            write.Commit();
        }

        using (var write = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 5; i++)
            {
                write.FreePage(pages[i]);
            }

            write.Commit();
        }

        var reused = new List<uint>();
        using (var write = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 8; i++)
            {
                var page = write.AllocatePage();
                PageData.Stamp(write, page, 1000 + i);
                reused.Add(page);
            }

            write.Commit();
        }

        // Five came off the free list, three extended the file.
        Assert.Equal(5, reused.Count(page => page < 12));
        Assert.Equal([12u, 13u, 14u], reused.Where(page => page >= 12).Order());

        db.CrashAndReopen();

        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(15u, read.PageCount);
            for (var i = 0; i < reused.Count; i++)
            {
                Assert.Equal(1000 + i, PageData.Read(read, reused[i]));
            }
        }

        var report = db.Engine.Verify();
        Assert.True(report.IsValid, string.Join("; ", report.Issues));
        Assert.Equal(15u, report.PageCount);
        Assert.Equal(0u, report.FreePageCount);
    }

    [Fact]
    public void A_checkpointed_file_whose_page_0_lags_opens_with_the_count_of_its_length()
    {
        using var db = new TestDatabase(Options());
        for (var i = 0; i < 6; i++)
        {
            AllocateAndStamp(db.Engine, i);
        }

        db.Engine.Checkpoint();
        Assert.True(StoredPageCount(db.Engine) < 8, "page 0 should lag the pages the commits added");
        db.Reopen();

        using var read = db.Engine.BeginRead();
        Assert.Equal(8u, read.PageCount);
        Assert.Equal(5, PageData.Read(read, 7));
    }

    [Fact]
    public void A_format_1_file_opens_and_its_commits_keep_the_count_in_page_0()
    {
        using var db = new TestDatabase(Options());
        AllocateAndStamp(db.Engine, 1);
        db.Engine.Dispose();
        RewriteVersion(db.Path, version: 1, pageCount: 3);

        db.Reopen();
        Assert.True(db.Engine.HeaderCarriesPageCount);
        AllocateAndStamp(db.Engine, 2);
        var walEnd = db.Engine.WalEnd;
        AllocateAndStamp(db.Engine, 3);

        // A format-1 reader trusts page 0's count, so it travels with the new page.
        Assert.Equal(2 * FrameSize, db.Engine.WalEnd - walEnd);
        Assert.Equal(5u, StoredPageCount(db.Engine));
        db.CrashAndReopen();

        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(5u, read.PageCount);
            Assert.Equal(3, PageData.Read(read, 4));
        }

        Assert.Equal(1u, DatabaseHeader.Read(db.Engine.GetImage(PageIds.Header, long.MaxValue, remember: false)).Version);
        Assert.True(db.Engine.Verify().IsValid);
    }

    [Fact]
    public void A_read_only_view_counts_the_pages_of_its_snapshot_while_a_writer_adds_and_checkpoints()
    {
        using var db = new TestDatabase(Options());
        for (var i = 0; i < 4; i++)
        {
            AllocateAndStamp(db.Engine, i);
        }

        db.Engine.WaitForLogPreallocation();
        using var view = StorageEngine.Open(db.Path, new StorageOptions { PageSize = PageSize, ReadOnly = true });
        using (var read = view.BeginRead())
        {
            Assert.Equal(6u, read.PageCount);
            Assert.Equal(3, PageData.Read(read, 5));
        }

        for (var i = 0; i < 3; i++)
        {
            AllocateAndStamp(db.Engine, 10 + i);
        }

        using (var read = view.BeginRead())
        {
            Assert.Equal(6u, read.PageCount);
        }

        db.Engine.Checkpoint();
        Assert.True(StoredPageCount(db.Engine) < 9, "page 0 should lag the pages the commits added");

        // A view opened after the checkpoint finds the new pages in the file's length alone.
        using var later = StorageEngine.Open(db.Path, new StorageOptions { PageSize = PageSize, ReadOnly = true });
        using (var read = later.BeginRead())
        {
            Assert.Equal(9u, read.PageCount);
            Assert.Equal(12, PageData.Read(read, 8));
        }

        Assert.True(later.Verify().IsValid);
    }

    [Fact]
    public async Task Read_only_views_racing_a_writer_that_extends_and_checkpoints_count_exactly_their_snapshots_pages()
    {
        const int MaxCommits = 4000;
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize, WalCheckpointThresholdBytes = 8 * FrameSize });
        uint tip;
        using (var tx = db.Engine.BeginWrite())
        {
            tip = tx.AllocatePage();
            PageData.Stamp(tx, tip, 0);
            tx.Commit();
        }

        // Commit v adds page tip + v and stamps v there and in the tip: a snapshot whose tip
        // holds v has exactly tip + v + 1 pages.
        await ReadOnlyViewRace.RunAsync(
            db,
            new StorageOptions { PageSize = PageSize, ReadOnly = true },
            (tx, value) =>
            {
                PageData.Stamp(tx, tx.AllocatePage(), value);
                PageData.Stamp(tx, tip, value);
            },
            read =>
            {
                var value = PageData.Read(read, tip);
                Assert.Equal(tip + value + 1, read.PageCount);
                Assert.Equal(value, PageData.Read(read, read.PageCount - 1));
            },
            maxViews: 100_000,
            maxCommits: MaxCommits);
    }

    private static uint AllocateAndStamp(StorageEngine engine, long value)
    {
        using var write = engine.BeginWrite();
        var page = write.AllocatePage();
        PageData.Stamp(write, page, value);
        write.Commit();
        return page;
    }

    /// <summary>The count page 0 itself holds in the newest commit.</summary>
    private static uint StoredPageCount(StorageEngine engine) =>
        DatabaseHeader.Read(engine.GetImage(PageIds.Header, long.MaxValue, remember: false)).PageCount;

    /// <summary>Makes a closed database's page 0 what a format-1 BLite writes: that version and the exact count.</summary>
    private static void RewriteVersion(string path, uint version, uint pageCount)
    {
        var page = FileBytes.Read(path, 0, PageSize);
        var header = DatabaseHeader.Read(page);
        header.Version = version;
        header.PageCount = pageCount;
        header.Write(page);
        PageLayout.Seal(page, PageIds.Header);
        FileBytes.Write(path, 0, page);
    }
}
