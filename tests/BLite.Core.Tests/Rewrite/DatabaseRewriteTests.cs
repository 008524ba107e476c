using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage.Encryption;

namespace BLite.Core.Tests.Rewrite;

public sealed class DatabaseRewriteTests
{
    [Fact]
    public void Encrypting_then_decrypting_keeps_every_document_and_index_and_no_marker_stays_on_disk_while_encrypted()
    {
        using var directory = new TempDirectory();
        var path = System.IO.Path.Combine(directory.Path, "db.blite");
        Fill(path, null);

        DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Open(path), BLiteEncryption.WithKey(EncryptionTestKeys.Key));

        Assert.False(File.Exists(path + ".rekey"));
        Assert.False(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(path)));
        Assert.Throws<BLiteEncryptionException>(() => DocumentDatabase.Open(path));
        AssertFilled(path, BLiteEncryption.WithKey(EncryptionTestKeys.Key));

        DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Open(path, new StorageOptions { Encryption = BLiteEncryption.WithKey(EncryptionTestKeys.Key) }), null);

        AssertFilled(path, null);
    }

    [Fact]
    public void A_wrong_or_absent_key_is_refused_and_the_file_stays_byte_for_byte_as_it_was()
    {
        using var directory = new TempDirectory();
        var path = System.IO.Path.Combine(directory.Path, "db.blite");
        Fill(path, BLiteEncryption.WithKey(EncryptionTestKeys.Key));
        var before = File.ReadAllBytes(path);

        var wrong = Assert.Throws<BLiteEncryptionException>(() => DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Open(path, new StorageOptions { Encryption = BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey) }), null));
        Assert.Contains("wrong key", wrong.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Throws<BLiteEncryptionException>(() => DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Open(path), BLiteEncryption.WithKey(EncryptionTestKeys.OtherKey)));

        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.False(File.Exists(path + ".rekey"));
        AssertFilled(path, BLiteEncryption.WithKey(EncryptionTestKeys.Key));
    }

    [Fact]
    public void A_verified_copy_that_fails_to_replace_the_file_is_removed_and_the_file_is_unchanged()
    {
        using var directory = new TempDirectory();
        var path = System.IO.Path.Combine(directory.Path, "db.blite");
        Fill(path, null);
        var copied = 0L;
        var steps = new RewriteSteps
        {
            Progress = (done, _) => copied = done,
            BeforeReplace = () => throw new IOException("injected failure before the rename"),
        };

        Assert.Throws<IOException>(() => DocumentDatabase.Rewrite(path, "rekey", "rekey", () => DocumentDatabase.Open(path), BLiteEncryption.WithKey(EncryptionTestKeys.Key), steps));

        Assert.Equal(Documents, copied);
        Assert.False(File.Exists(path + ".rekey"));
        Assert.True(EncryptionTestKeys.HoldsMarker(File.ReadAllBytes(path)));
        AssertFilled(path, null);
    }

    private const int Documents = 300;

    private static void Fill(string path, BLiteEncryption? encryption)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions { Encryption = encryption }, [new CollectionDefinition("orders", [new IndexDefinition("by_status", "status")])]);
        var orders = database.GetCollection("orders");
        using var write = database.BeginWrite();
        for (var i = 0; i < Documents; i++)
        {
            orders.Insert(write, new BsonDocument { ["_id"] = i, ["status"] = i % 3 == 0 ? "shipped" : "pending", ["note"] = EncryptionTestKeys.Marker });
        }

        write.Commit();
    }

    private static void AssertFilled(string path, BLiteEncryption? encryption)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions { Encryption = encryption });
        Assert.True(database.Verify().IsValid);
        using var read = database.BeginRead();
        var orders = database.GetRawCollection("orders");
        Assert.Equal(Documents, orders.Count(read));
        Assert.Contains(orders.GetIndexes(read), index => index.Name == "by_status");
    }
}
