using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Writers copy pages into arrays that dropped versions left behind. These tests check that the
/// arrays are reused, and that a reader never sees one change under it: every version a live
/// snapshot can see keeps its own array until that snapshot ends.
/// </summary>
public class PageImageReuseTests
{
    private const int PageSize = 4096;
    private const int Pages = 8;

    [Fact]
    public void Readers_keep_their_snapshot_while_checkpoints_recycle_the_arrays_of_dropped_versions()
    {
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = Durability.Normal,
            PageSize = PageSize,
            WalCheckpointThresholdBytes = 16 * PageSize,
        });
        var pages = AllocatePages(db.Engine);
        var random = new Random(1515);
        var readers = new List<(ReadTransaction Reader, long Stamp)>();
        var reused = 0;
        try
        {
            for (var commit = 0; commit < 2000; commit++)
            {
                // Every commit stamps every page with its number, so a snapshot sees one number everywhere.
                using (var tx = db.Engine.BeginWrite())
                {
                    foreach (var page in pages)
                    {
                        PageData.Stamp(tx, page, commit);
                    }

                    tx.Commit();
                }

                reused = Math.Max(reused, db.Engine.SpareImageCount);
                if (random.Next(40) == 0)
                {
                    readers.Add((db.Engine.BeginRead(), commit));
                }

                if (readers.Count > 0 && random.Next(60) == 0)
                {
                    var index = random.Next(readers.Count);
                    AssertSees(readers[index].Reader, pages, readers[index].Stamp);
                    readers[index].Reader.Dispose();
                    readers.RemoveAt(index);
                }

                foreach (var (reader, stamp) in readers)
                {
                    Assert.Equal(stamp, PageData.Read(reader, pages[commit % Pages]));
                }
            }

            foreach (var (reader, stamp) in readers)
            {
                AssertSees(reader, pages, stamp);
            }
        }
        finally
        {
            foreach (var (reader, _) in readers)
            {
                reader.Dispose();
            }
        }

        // The scenario happened: checkpoints dropped versions and writers took their arrays.
        Assert.True(db.Engine.GetStatistics().Checkpoints > 20, $"only {db.Engine.GetStatistics().Checkpoints} checkpoints");
        Assert.True(reused > 0, "no checkpoint left an array for reuse");
    }

    [Fact]
    public void A_commit_copies_its_pages_into_reused_arrays_instead_of_allocating_them()
    {
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = Durability.Normal,
            PageSize = PageSize,
            WalCheckpointThresholdBytes = 64 * PageSize,
            CheckpointInBackground = false,
        });
        var pages = AllocatePages(db.Engine);
        void Commits(int first, int count)
        {
            for (var commit = first; commit < first + count; commit++)
            {
                using var tx = db.Engine.BeginWrite();
                PageData.Stamp(tx, pages[commit % Pages], commit);
                tx.Commit();
            }
        }

        // Fill a few checkpoint intervals so arrays are spare, then measure the same work again.
        Commits(0, 300);
        Assert.True(db.Engine.SpareImageCount > 0, "no checkpoint left an array for reuse");
        const int Measured = 50;
        var before = GC.GetAllocatedBytesForCurrentThread();
        Commits(300, Measured);
        var perCommit = (GC.GetAllocatedBytesForCurrentThread() - before) / Measured;

        // Without reuse each commit would allocate at least its page copy.
        Assert.InRange(perCommit, 0, PageSize - 1);
        foreach (var page in pages)
        {
            Assert.InRange(db.Engine.Read(page, static (reader, id) => PageData.Read(reader, id)), 300 - Pages, 349);
        }
    }

    [Fact]
    public void A_rolled_back_transaction_returns_its_copies_and_a_commit_returns_the_version_it_hides()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize });
        var pages = AllocatePages(db.Engine);
        var before = db.Engine.SpareImageCount;
        using (var tx = db.Engine.BeginWrite())
        {
            foreach (var page in pages)
            {
                PageData.Stamp(tx, page, 99);
            }

            tx.Rollback();
        }

        // The copies took what was spare, and all of them came back.
        var afterRollback = db.Engine.SpareImageCount;
        Assert.Equal(before - Math.Min(before, Pages) + Pages, afterRollback);

        // No reader is open: the commit takes one array for its copy and at once returns the
        // array of the version its new one hides.
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, pages[0], 7);
            tx.Commit();
        }

        Assert.Equal(afterRollback, db.Engine.SpareImageCount);

        // With a reader on the old snapshot, that version stays (and the reader still sees it).
        using (var reader = db.Engine.BeginRead())
        {
            using (var tx = db.Engine.BeginWrite())
            {
                PageData.Stamp(tx, pages[0], 8);
                tx.Commit();
            }

            Assert.Equal(afterRollback - 1, db.Engine.SpareImageCount);
            Assert.Equal(7, PageData.Read(reader, pages[0]));
        }

        Assert.Equal(8, db.Engine.Read(pages[0], static (reader, id) => PageData.Read(reader, id)));
        Assert.Equal(-1, db.Engine.Read(pages[1], static (reader, id) => PageData.Read(reader, id)));
    }

    [Fact]
    public void A_page_committed_again_and_again_under_an_open_reader_keeps_only_its_head_and_the_readers_version()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize, CheckpointInBackground = false });
        var pages = AllocatePages(db.Engine);
        using (var reader = db.Engine.BeginRead())
        {
            for (var commit = 0; commit < 50; commit++)
            {
                using var tx = db.Engine.BeginWrite();
                PageData.Stamp(tx, pages[0], commit);
                tx.Commit();

                // The versions between the reader's and the head are seen by nobody: the commit drops them.
                Assert.Equal(2, db.Engine.PageVersionCount(pages[0]));
            }

            Assert.Equal(-1, PageData.Read(reader, pages[0]));
            Assert.Equal(49, db.Engine.Read(pages[0], static (current, id) => PageData.Read(current, id)));
        }

        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, pages[0], 50);
            tx.Commit();
        }

        Assert.Equal(1, db.Engine.PageVersionCount(pages[0]));
    }

    [Fact]
    public void A_reserve_of_spare_arrays_serves_the_commits_of_a_growing_database_without_allocating()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize });
        db.Engine.RefillSpareImages();
        var reserve = db.Engine.SpareImageCount;
        Assert.True(reserve >= 64, $"the reserve holds {reserve} arrays");

        // Every page this transaction adds takes a reserved array; none is allocated here.
        var before = GC.GetAllocatedBytesForCurrentThread();
        using (var tx = db.Engine.BeginWrite())
        {
            for (var i = 0; i < 32; i++)
            {
                PageData.Stamp(tx, tx.AllocatePage(), i);
            }

            tx.Rollback();
        }

        Assert.InRange(GC.GetAllocatedBytesForCurrentThread() - before, 0, PageSize - 1);
        Assert.Equal(reserve, db.Engine.SpareImageCount);
    }

    [Fact]
    public void A_lent_write_transaction_serves_the_next_lent_write_clean_after_a_commit_or_a_rollback()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize });
        var pages = AllocatePages(db.Engine);
        var first = db.Engine.BeginLentWrite();
        PageData.Stamp(first, pages[0], 1);
        first.Commit();
        first.EndLent();

        var second = db.Engine.BeginLentWrite();
        Assert.Same(first, second);
        Assert.Equal(0, second.DirtyPageCount);
        Assert.Equal(1, PageData.Read(second, pages[0]));
        PageData.Stamp(second, pages[0], 2);
        var added = second.AllocatePage();
        second.EndLent();

        // The rolled-back write left nothing behind, in the engine or in the object.
        var third = db.Engine.BeginLentWrite();
        Assert.Same(first, third);
        Assert.Equal(0, third.DirtyPageCount);
        Assert.Equal(added, third.PageCount);
        Assert.Equal(1, PageData.Read(third, pages[0]));
        third.EndLent();
        Assert.Equal(1, db.Engine.Read(pages[0], static (reader, id) => PageData.Read(reader, id)));

        // A transaction from BeginWrite is never lent, so a reference kept to it stays finished.
        var plain = db.Engine.BeginWrite();
        plain.Commit();
        plain.EndLent();
        var lent = db.Engine.BeginLentWrite();
        Assert.Same(first, lent);
        Assert.NotSame(plain, lent);
        lent.EndLent();
    }

    private static uint[] AllocatePages(StorageEngine engine)
    {
        var pages = new uint[Pages];
        using var tx = engine.BeginWrite();
        for (var i = 0; i < Pages; i++)
        {
            pages[i] = tx.AllocatePage();
            PageData.Stamp(tx, pages[i], -1);
        }

        tx.Commit();
        return pages;
    }

    private static void AssertSees(ReadTransaction reader, uint[] pages, long stamp)
    {
        foreach (var page in pages)
        {
            Assert.Equal(stamp, PageData.Read(reader, page));
        }
    }
}
