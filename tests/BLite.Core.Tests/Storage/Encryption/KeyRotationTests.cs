using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage.Encryption;

public class KeyRotationTests
{
    [Fact]
    public void A_rotated_key_keeps_readers_going_and_commits_after_it_recover_under_the_new_key()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var before = EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        using (var reader = db.Engine.BeginRead())
        {
            db.Engine.Rekey(BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey));
            Assert.Equal(1, PageData.Read(reader, before));
        }

        var after = EncryptionTestKeys.WriteMarkerPage(db.Engine, 2);
        Assert.False(File.Exists(db.Path + ".rekey"));

        // The commit after the rotation is only in the log, sealed with the new key.
        var newOptions = EncryptionTestKeys.Options(EncryptionTestKeys.OtherKey);
        db.CrashAndReopen(newOptions);
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(1, PageData.Read(read, before));
            Assert.Equal(2, PageData.Read(read, after));
        }

        db.Engine.Dispose();
        var oldKey = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, EncryptionTestKeys.Options()));
        Assert.Contains("wrong key", oldKey.Message, StringComparison.OrdinalIgnoreCase);
        db.Reopen(newOptions);
    }

    [Fact]
    public void A_leftover_copy_stops_the_rotation_before_anything_changes()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 3);
        File.WriteAllBytes(db.Path + ".rekey", [1, 2, 3]);

        var exception = Assert.Throws<BLiteException>(() => db.Engine.Rekey(BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey)));

        Assert.Contains("interrupted rekey", exception.Message, StringComparison.Ordinal);
        Assert.Equal([1, 2, 3], File.ReadAllBytes(db.Path + ".rekey"));
        File.Delete(db.Path + ".rekey");
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(3, PageData.Read(read, page));
    }

    [Fact]
    public void Rotation_flushes_the_folder_after_the_rename()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 4);
        var flushed = new List<(string Path, bool CopyStillThere)>();
        db.Engine.FlushDirectory = path => flushed.Add((path, File.Exists(db.Path + ".rekey")));

        db.Engine.Rekey(BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey));

        Assert.Equal([(db.Path, false)], flushed);
        db.Reopen(EncryptionTestKeys.Options(EncryptionTestKeys.OtherKey));
        using var read = db.Engine.BeginRead();
        Assert.Equal(4, PageData.Read(read, page));
    }

    [Fact]
    public void A_folder_flush_failing_after_the_rename_reports_the_rotation_done_and_the_database_opens_with_the_new_key()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var before = EncryptionTestKeys.WriteMarkerPage(db.Engine, 5);
        db.Engine.FlushDirectory = _ => throw new IOException("injected: the folder could not be flushed");

        var exception = Assert.Throws<BLiteException>(() => db.Engine.Rekey(BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey)));

        Assert.Contains("now opens with the new key only", exception.Message, StringComparison.Ordinal);
        Assert.Contains("injected", exception.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(db.Path + ".rekey"));

        // The engine goes on under the new key; a commit after the failure survives a crash.
        var after = EncryptionTestKeys.WriteMarkerPage(db.Engine, 6);
        var newOptions = EncryptionTestKeys.Options(EncryptionTestKeys.OtherKey);
        db.CrashAndReopen(newOptions);
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(5, PageData.Read(read, before));
            Assert.Equal(6, PageData.Read(read, after));
        }

        db.Engine.Dispose();
        var oldKey = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, EncryptionTestKeys.Options()));
        Assert.Contains("wrong key", oldKey.Message, StringComparison.OrdinalIgnoreCase);
        db.Reopen(newOptions);
    }
}
