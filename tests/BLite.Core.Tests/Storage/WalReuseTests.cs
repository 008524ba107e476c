using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A checkpoint restarts the log at its start without shrinking the file, so behind the frames of
/// the current generation lie intact frames of earlier ones (or zeros, in a file extended ahead
/// of its use). Recovery must read that tail as the end of the log: never as data, never as
/// corruption.
/// </summary>
public class WalReuseTests
{
    private const int PageSize = 4096;
    private const int FrameSize = 32 + PageSize;
    private const int WalHeaderSize = 40;

    [Fact]
    public void Recovery_ignores_intact_frames_of_an_earlier_generation_behind_the_current_ones()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        StampCommits(db.Engine, 1, 20);
        db.Engine.Checkpoint();
        var walLengthAfterRestart = new FileInfo(db.WalPath).Length;
        StampCommits(db.Engine, 101, 3);

        db.CrashAndReopen();

        // The old generation's frames 3..19 (values 4..20) were still in the file when it reopened.
        Assert.True(walLengthAfterRestart >= WalHeaderSize + (20L * FrameSize));
        using var read = db.Engine.BeginRead();
        Assert.Equal(103, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_torn_last_frame_in_front_of_older_generations_is_discarded_not_reported_as_corruption()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        StampCommits(db.Engine, 1, 20);
        db.Engine.Checkpoint();
        StampCommits(db.Engine, 101, 3);
        db.Engine.CloseWithoutCheckpoint();

        // Tear the image of the third frame of the current generation.
        FileBytes.Flip(db.WalPath, WalHeaderSize + (2L * FrameSize) + 32 + 10);
        db.CrashAndReopen();

        using var read = db.Engine.BeginRead();
        Assert.Equal(102, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_zero_filled_tail_reads_as_the_end_of_the_log()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        StampCommits(db.Engine, 1, 4);
        db.Engine.CloseWithoutCheckpoint();
        using (var wal = new FileStream(db.WalPath, FileMode.Open, FileAccess.ReadWrite))
        {
            wal.SetLength(wal.Length + (16L * FrameSize));
        }

        db.CrashAndReopen();

        using var read = db.Engine.BeginRead();
        Assert.Equal(4, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void Commits_after_recovery_over_a_stale_tail_survive_the_next_crash()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        StampCommits(db.Engine, 1, 20);
        db.Engine.Checkpoint();
        StampCommits(db.Engine, 101, 3);
        db.CrashAndReopen();
        StampCommits(db.Engine, 201, 2);

        db.CrashAndReopen();

        using var read = db.Engine.BeginRead();
        Assert.Equal(202, PageData.Read(read, PageIds.Catalog));
    }

    private static void StampCommits(StorageEngine engine, long firstValue, int count)
    {
        for (var i = 0; i < count; i++)
        {
            using var tx = engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, firstValue + i);
            tx.Commit();
        }
    }
}
