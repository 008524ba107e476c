using BLite.Core.Storage;
using BLite.Core.Storage.Encryption;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>
/// Older authentic versions put back in place of current ones (encryption format 2's version map,
/// docs/encryption.md): a page, every page, or a log from another state of the database.
/// </summary>
public class RollbackTests
{
    private const int PageSize = 4096;

    [Fact]
    public void A_page_replaced_by_its_own_older_version_is_refused_naming_the_page()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        var neighbour = EncryptionTestKeys.WriteMarkerPage(db.Engine, 2);
        db.Engine.Dispose();
        var older = FileBytes.Read(db.Path, StoredOffset(page), PageSize);
        db.Reopen();
        PageData.Commit(db.Engine, page, 3);
        db.Engine.Dispose();
        var current = FileBytes.Read(db.Path, StoredOffset(page), PageSize);
        Assert.NotEqual(older, current);

        FileBytes.Write(db.Path, StoredOffset(page), older);
        db.Reopen();

        using (var read = db.Engine.BeginRead())
        {
            var exception = Assert.Throws<BLiteCorruptionException>(() => read.ReadPage(page));
            Assert.Equal(page, exception.PageId);
            Assert.Equal(db.Path, exception.FilePath);
            Assert.Contains("authentication failed", exception.Message, StringComparison.Ordinal);
            Assert.Contains("older version", exception.Message, StringComparison.Ordinal);
            Assert.Equal(2, PageData.Read(read, neighbour));
        }

        db.Engine.CloseWithoutCheckpoint();
        FileBytes.Write(db.Path, StoredOffset(page), current);
        db.Reopen();
        using var check = db.Engine.BeginRead();
        Assert.Equal(3, PageData.Read(check, page));
    }

    [Fact]
    public void Every_page_of_the_file_put_back_from_an_older_copy_is_refused_at_open()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        db.Engine.Dispose();
        var older = File.ReadAllBytes(db.Path);
        db.Reopen();
        PageData.Commit(db.Engine, page, 2);
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 3);
        db.Engine.Dispose();
        var current = File.ReadAllBytes(db.Path);

        // The current header (and its version record) over every page of the older copy.
        var mixed = older.ToArray();
        current.AsSpan(0, PageSize).CopyTo(mixed);
        File.WriteAllBytes(db.Path, mixed);
        var exception = Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));
        Assert.Contains("older version", exception.Message, StringComparison.Ordinal);
        Assert.Contains("version map", exception.Message, StringComparison.Ordinal);

        File.WriteAllBytes(db.Path, current);
        db.Reopen();
    }

    [Fact]
    public void A_log_is_refused_next_to_a_file_from_another_state_and_both_rolled_back_together_open_as_the_older_database()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        PageData.Commit(db.Engine, page, 2);
        db.Engine.CloseWithoutCheckpoint();
        var olderFile = File.ReadAllBytes(db.Path);
        var olderLog = File.ReadAllBytes(db.WalPath);

        db.Reopen();
        PageData.Commit(db.Engine, page, 3);
        db.Engine.Checkpoint();
        PageData.Commit(db.Engine, page, 4);
        PageData.Commit(db.Engine, page, 5);
        db.Engine.CloseWithoutCheckpoint();
        var newerFile = File.ReadAllBytes(db.Path);
        var newerLog = File.ReadAllBytes(db.WalPath);

        // An older log beside the newer file, and the newer log beside the older file.
        File.WriteAllBytes(db.WalPath, olderLog);
        Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));
        File.WriteAllBytes(db.Path, olderFile);
        File.WriteAllBytes(db.WalPath, newerLog);
        Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));

        // Both files of the older state together are a consistent older database: nothing in the
        // files can tell that a newer one existed (the documented limit).
        File.WriteAllBytes(db.WalPath, olderLog);
        db.Reopen();
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(2, PageData.Read(read, page));
        }

        db.Engine.CloseWithoutCheckpoint();
        File.WriteAllBytes(db.Path, newerFile);
        File.WriteAllBytes(db.WalPath, newerLog);
        db.Reopen();
        using var check = db.Engine.BeginRead();
        Assert.Equal(5, PageData.Read(check, page));
    }

    private static long StoredOffset(uint page) => EncryptedFileDevice.StoredOffset(page, PageSize);
}
