using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage.Encryption;

public class EncryptedStorageTests
{
    [Fact]
    public void No_plaintext_reaches_the_database_file_or_the_log()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 42);

        // The commit is in the log only (no checkpoint yet): the log must not hold the marker.
        db.Engine.CloseWithoutCheckpoint();
        var log = File.ReadAllBytes(db.WalPath);
        Assert.False(EncryptionTestKeys.HoldsMarker(log));
        Assert.True(log.Length > 40 + 4096);

        // Recovery checkpoints the commit into the file.
        db.CrashAndReopen().Dispose();
        Assert.False(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(db.Path)));
        Assert.False(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(db.WalPath)));
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(42, PageData.Read(read, page));
        Assert.True(db.Engine.IsEncrypted);
    }

    [Fact]
    public void The_same_marker_in_a_plain_database_is_found_so_the_search_is_real()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        db.Engine.CloseWithoutCheckpoint();
        Assert.True(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(db.WalPath)));
        db.CrashAndReopen().Dispose();
        Assert.True(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(db.Path)));
        db.Reopen();
    }

    [Fact]
    public void Commits_recovered_from_the_log_after_a_crash_read_back()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var pages = new List<uint>();
        for (var i = 0; i < 5; i++)
        {
            pages.Add(EncryptionTestKeys.WriteMarkerPage(db.Engine, 100 + i));
        }

        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        for (var i = 0; i < pages.Count; i++)
        {
            Assert.Equal(100 + i, PageData.Read(read, pages[i]));
        }
    }

    [Fact]
    public void The_header_says_encrypted_and_the_payload_leaves_room_for_the_tag()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options(pageSize: 8192));
        Assert.Equal(8192 - 48, db.Engine.PagePayloadSize);
        db.Engine.Dispose();
        var bytes = File.ReadAllBytes(db.Path);
        Assert.Equal("BLiteENC"u8.ToArray(), bytes[..8]);
        Assert.Equal(0, bytes.Length % 8192);
        db.Reopen();
    }

    [Fact]
    public void A_wrong_key_is_refused_and_nothing_is_written()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        EncryptionTestKeys.WriteMarkerPage(db.Engine, 7);
        db.Engine.CloseWithoutCheckpoint();
        var file = File.ReadAllBytes(db.Path);
        var log = File.ReadAllBytes(db.WalPath);

        var exception = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, EncryptionTestKeys.Options(EncryptionTestKeys.OtherKey)));

        Assert.Contains("wrong key", exception.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Contains(db.Path, exception.Message, StringComparison.Ordinal);
        Assert.Equal(file, File.ReadAllBytes(db.Path));
        Assert.Equal(log, File.ReadAllBytes(db.WalPath));

        // The key is checked against the header before the log is even opened: a wrong key does
        // not create a missing log, and costs one HMAC, not a scan of the log.
        db.CrashAndReopen().Dispose();
        File.Delete(db.WalPath);
        Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, EncryptionTestKeys.Options(EncryptionTestKeys.OtherKey)));
        Assert.False(File.Exists(db.WalPath));
        db.Reopen();
    }

    [Fact]
    public void A_password_where_a_key_was_used_is_a_wrong_key()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        db.Engine.Dispose();
        var options = new StorageOptions { Encryption = BLiteEncryption.WithPassword("secret") };
        var exception = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, options));
        Assert.Contains("wrong key", exception.Message, StringComparison.OrdinalIgnoreCase);
        db.Reopen();
    }

    [Fact]
    public void An_encrypted_database_without_a_key_is_refused_with_a_clear_error()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        db.Engine.Dispose();
        var exception = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, new StorageOptions()));
        Assert.Contains("is encrypted", exception.Message, StringComparison.Ordinal);
        Assert.Contains("no key was given", exception.Message, StringComparison.Ordinal);
        var readOnly = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, new StorageOptions { ReadOnly = true }));
        Assert.Contains("no key was given", readOnly.Message, StringComparison.Ordinal);
        db.Reopen();
    }

    [Fact]
    public void A_key_for_a_plain_database_is_refused_and_points_to_rekey()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        db.Engine.Dispose();
        var before = File.ReadAllBytes(db.Path);
        var exception = Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, EncryptionTestKeys.Options()));
        Assert.Contains("not encrypted", exception.Message, StringComparison.Ordinal);
        Assert.Contains("blite rekey", exception.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(db.Path));
        db.Reopen();
    }

    [Fact]
    public void A_password_protected_database_opens_with_its_password_only()
    {
        var options = new StorageOptions { PageSize = 4096, Encryption = BLiteEncryption.WithPassword("correct horse") };
        using var db = new TestDatabase(options);
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 9);
        db.Engine.Dispose();

        var wrong = new StorageOptions { Encryption = BLiteEncryption.WithPassword("battery staple") };
        Assert.Throws<BLiteEncryptionException>(() => StorageEngine.Open(db.Path, wrong));
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(9, PageData.Read(read, page));
    }

    [Fact]
    public void A_read_only_open_reads_an_encrypted_database_and_its_log()
    {
        using var db = new TestDatabase(EncryptionTestKeys.Options());
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 5);
        var options = EncryptionTestKeys.Options();
        options.ReadOnly = true;
        using var view = StorageEngine.Open(db.Path, options);
        using var read = view.BeginRead();
        Assert.Equal(5, PageData.Read(read, page));
    }
}
