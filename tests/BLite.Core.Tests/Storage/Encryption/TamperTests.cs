using BLite.Core.Storage;
using BLite.Core.Storage.Encryption;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>Every way of altering an encrypted file an attacker with write access has is refused, never read as data.</summary>
public class TamperTests
{
    private const int PageSize = 4096;
    private const int FrameSize = 32 + PageSize;

    [Fact]
    public void A_flipped_bit_in_a_page_fails_authentication_naming_file_and_page()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 11);
        db.Engine.Dispose();
        FileBytes.Flip(db.Path, StoredOffset(page) + 100);
        db.Reopen();

        var exception = ReadFails(db.Engine, page);
        Assert.Equal(db.Path, exception.FilePath);
        Assert.Equal(page, exception.PageId);

        Restore(db, () => FileBytes.Flip(db.Path, StoredOffset(page) + 100));
    }

    [Fact]
    public void A_flipped_bit_in_the_nonce_or_the_tag_fails_authentication()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 12);
        db.Engine.Dispose();
        foreach (var fromEnd in new[] { 40, 25, 3 })
        {
            FileBytes.Flip(db.Path, StoredOffset(page) + PageSize - fromEnd);
            db.Reopen();
            ReadFails(db.Engine, page);
            db.Engine.CloseWithoutCheckpoint();
            FileBytes.Flip(db.Path, StoredOffset(page) + PageSize - fromEnd);
        }

        db.Reopen();
    }

    [Fact]
    public void Two_swapped_pages_both_fail_authentication()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var first = EncryptionTestKeys.WriteMarkerPage(db.Engine, 21);
        var second = EncryptionTestKeys.WriteMarkerPage(db.Engine, 22);
        db.Engine.Dispose();
        FileBytes.Swap(db.Path, StoredOffset(first), StoredOffset(second), PageSize);
        db.Reopen();

        ReadFails(db.Engine, first);
        ReadFails(db.Engine, second);

        Restore(db, () => FileBytes.Swap(db.Path, StoredOffset(first), StoredOffset(second), PageSize));
    }

    [Fact]
    public void A_page_copied_from_another_database_with_the_same_key_fails_authentication()
    {
        using var source = new TestDatabase(EncryptionTestKeys.Options());
        using var target = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(source.Engine, 31);
        Assert.Equal(page, EncryptionTestKeys.WriteMarkerPage(target.Engine, 32));
        source.Engine.Dispose();
        target.Engine.Dispose();
        var original = FileBytes.Read(target.Path, StoredOffset(page), PageSize);
        FileBytes.Write(target.Path, StoredOffset(page), FileBytes.Read(source.Path, StoredOffset(page), PageSize));
        target.Reopen();

        ReadFails(target.Engine, page);

        Restore(target, () => FileBytes.Write(target.Path, StoredOffset(page), original));
        source.Reopen();
    }

    [Fact]
    public void A_frame_moved_within_the_log_is_refused_never_read_as_data()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var pages = new List<uint>();
        for (var i = 0; i < 4; i++)
        {
            pages.Add(EncryptionTestKeys.WriteMarkerPage(db.Engine, 40 + i));
        }

        db.Engine.CloseWithoutCheckpoint();
        var log = File.ReadAllBytes(db.WalPath);

        // Swap the first two frames: each now sits at another index than the one it was sealed for,
        // and later frames record that both had been flushed.
        FileBytes.Swap(db.WalPath, 40, 40 + FrameSize, FrameSize);
        var exception = Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));
        Assert.Contains("write-ahead log frame 0", exception.Message, StringComparison.Ordinal);

        File.WriteAllBytes(db.WalPath, log);
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(43, PageData.Read(read, pages[3]));
    }

    [Fact]
    public void A_frame_whose_header_was_edited_fails_authentication()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        // Three one-frame commits: the later two prove the first was flushed, so its failure is
        // damage, not a torn tail.
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 50);
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 51);
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 52);
        db.Engine.CloseWithoutCheckpoint();
        var log = File.ReadAllBytes(db.WalPath);

        // Bit 0 of the first frame's flags is its commit flag; a forged flag is not accepted.
        FileBytes.Flip(db.WalPath, 40 + 4);
        Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));

        File.WriteAllBytes(db.WalPath, log);
        db.Reopen();
    }

    private static long StoredOffset(uint page) => EncryptedFileDevice.StoredOffset(page, PageSize);

    private static BLiteCorruptionException ReadFails(StorageEngine engine, uint page)
    {
        using var read = engine.BeginRead();
        var exception = Assert.Throws<BLiteCorruptionException>(() => read.ReadPage(page));
        Assert.Contains($"page {page}", exception.Message, StringComparison.Ordinal);
        Assert.Contains("authentication failed", exception.Message, StringComparison.Ordinal);
        return exception;
    }

    /// <summary>Undoes the damage with the engine closed, so the test database's own check on dispose passes.</summary>
    private static void Restore(TestDatabase db, Action undo)
    {
        db.Engine.CloseWithoutCheckpoint();
        undo();
        db.CrashAndReopen();
    }
}
