using System.Text;
using BLite.Tests.ChangeFeed;
using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class EncryptedContextTests : IDisposable
{
    private const string Marker = "Confidential-Customer-9b41e2";
    private static readonly byte[] Key = [.. Enumerable.Range(40, BLiteEncryption.KeySize).Select(i => (byte)i)];

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void An_encrypted_context_round_trips_documents_and_keeps_them_off_the_disk_in_clear()
    {
        var path = _directory.File();
        ObjectId id;
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            var order = Orders.Create(1);
            order.Customer.FullName = Marker;
            id = db.Orders.Insert(order);
            Assert.Equal(Marker, db.Orders.FindById(id)!.Customer.FullName);
            Assert.True(db.Database.Verify().IsValid);
        }

        foreach (var file in new[] { path, path + "-wal" })
        {
            var bytes = File.ReadAllBytes(file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(Marker)) < 0, file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.Unicode.GetBytes(Marker)) < 0, file);
        }

        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            Assert.Equal(Marker, db.Orders.FindById(id)!.Customer.FullName);
        }
    }

    [Fact]
    public async Task The_change_journal_and_a_backup_of_an_encrypted_database_are_encrypted_under_the_same_key()
    {
        var path = _directory.File();
        var backup = _directory.File("backup.blite");
        ObjectId id;
        using (var db = new FeedShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            var order = Orders.Create(1);
            order.Customer.FullName = Marker;
            id = db.Orders.Insert(order);
            order.Status = "shipped";
            db.Orders.Update(order);
            var journal = await ChangeStreams.Take(db.Orders.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 2);
            Assert.Equal(Marker, journal[1].Before!.Customer.FullName);
            db.Database.Backup(backup);
        }

        AssertNoMarker(path, path + "-wal", backup);
        Assert.False(File.Exists(backup + "-wal"));
        Assert.Throws<BLiteEncryptionException>(() => new FeedShopContext(new DocumentDbContextOptions { Path = backup, ReadOnly = true }));
        using var restored = new FeedShopContext(Options(backup, BLiteEncryption.WithKey(Key)));
        Assert.Equal(Marker, restored.Orders.FindById(id)!.Customer.FullName);
        var restoredJournal = await ChangeStreams.Take(restored.Orders.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 2);
        Assert.Equal(Marker, restoredJournal[1].Before!.Customer.FullName);
        Assert.True(restored.Database.Verify().IsValid);
    }

    private static void AssertNoMarker(params string[] files)
    {
        foreach (var file in files)
        {
            var bytes = File.ReadAllBytes(file);
            Assert.True(bytes.Length > 0, file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(Marker)) < 0, file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.Unicode.GetBytes(Marker)) < 0, file);
        }
    }

    [Fact]
    public void A_context_with_a_wrong_key_or_none_fails_with_an_encryption_error()
    {
        var path = _directory.File();
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            db.Orders.Insert(Orders.Create(1));
        }

        var wrongKey = new byte[BLiteEncryption.KeySize];
        var wrong = Assert.Throws<BLiteEncryptionException>(() => new ShopContext(Options(path, BLiteEncryption.WithKey(wrongKey))));
        Assert.Contains("wrong key", wrong.Message, StringComparison.OrdinalIgnoreCase);
        var missing = Assert.Throws<BLiteEncryptionException>(() => new ShopContext(path));
        Assert.Contains("encrypted", missing.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_key_provider_supplies_the_key_on_every_open()
    {
        var path = _directory.File();
        var provider = new CountingKeyProvider();
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKeyProvider(provider))))
        {
            db.Orders.Insert(Orders.Create(1));
        }

        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            Assert.Equal(1, db.Orders.Count());
        }

        Assert.Equal(1, provider.Calls);
        Assert.Throws<ArgumentException>(() => BLiteEncryption.WithKey(new byte[16]));
    }

    [Fact]
    public void Rekey_rotates_the_key_of_an_open_database_and_only_the_new_key_opens_it_afterwards()
    {
        var path = _directory.File();
        var newKey = Enumerable.Range(90, BLiteEncryption.KeySize).Select(i => (byte)i).ToArray();
        ObjectId first;
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            first = db.Orders.Insert(Orders.Create(1));
            var before = db.Orders.FindById(first)!.OrderNumber;

            db.Database.Rekey(BLiteEncryption.WithPassword("rotated"));

            Assert.False(File.Exists(path + ".rekey"));
            Assert.Equal(before, db.Orders.FindById(first)!.OrderNumber);
            db.Orders.Insert(Orders.Create(2));
            Assert.True(db.Database.Verify().IsValid);

            db.Database.Rekey(BLiteEncryption.WithKey(newKey));
            db.Orders.Insert(Orders.Create(3));
        }

        Assert.Throws<BLiteEncryptionException>(() => new ShopContext(Options(path, BLiteEncryption.WithKey(Key))));
        Assert.Throws<BLiteEncryptionException>(() => new ShopContext(Options(path, BLiteEncryption.WithPassword("rotated"))));
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(newKey))))
        {
            Assert.Equal(3, db.Orders.Count());
            Assert.Equal(Orders.Create(1).OrderNumber, db.Orders.FindById(first)!.OrderNumber);
            Assert.True(db.Database.Verify().IsValid);
        }
    }

    [Fact]
    public void Rekey_encrypts_an_open_plain_database_with_its_documents_and_indexes()
    {
        var path = _directory.File();
        ObjectId id;
        using (var db = new ShopContext(path))
        {
            var events = db.Database.GetCollection("events");
            events.EnsureIndex("by_kind", "kind");
            events.Insert(new BsonDocument { ["kind"] = Marker });
            for (var i = 1; i <= 40; i++)
            {
                var order = Orders.Create(i);
                order.Customer.FullName = Marker;
                db.Orders.Insert(order);
            }

            id = db.Orders.Insert(Orders.Create(41));
            var shipped = db.Orders.Query().Count(o => o.Status == "shipped");

            db.Database.Rekey(BLiteEncryption.WithKey(Key));

            Assert.False(File.Exists(path + ".rekey"));
            Assert.Equal(41, db.Orders.Count());
            Assert.Equal(Orders.Create(41).OrderNumber, db.Orders.FindById(id)!.OrderNumber);
            var byStatus = db.Orders.Query().Where(o => o.Status == "shipped");
            Assert.StartsWith("IXSCAN", byStatus.Explain(), StringComparison.Ordinal);
            Assert.Equal(shipped, byStatus.Count());
            Assert.Contains("by_kind", events.Explain($$"""{ "kind": "{{Marker}}" }"""), StringComparison.Ordinal);
            events.Insert(new BsonDocument { ["kind"] = "after" });
            db.Orders.Insert(Orders.Create(42));
            Assert.Equal(2, events.Count());
            Assert.True(db.Database.Verify().IsValid);
        }

        AssertNoMarkerOnDisk(path);
        Assert.Throws<BLiteEncryptionException>(() => new ShopContext(path));
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key))))
        {
            Assert.Equal(42, db.Orders.Count());
            Assert.Equal(Marker, db.Orders.Query().First(o => o.Customer.FullName == Marker).Customer.FullName);
            Assert.Equal(2, db.Database.GetCollection("events").Count());
            Assert.True(db.Database.Verify().IsValid);
        }
    }

    [Fact]
    public void Decrypt_writes_an_encrypted_database_back_in_plaintext_and_a_plain_one_is_refused()
    {
        var path = _directory.File();
        using (var db = new ShopContext(Options(path, BLiteEncryption.WithPassword("secret"))))
        {
            var order = Orders.Create(1);
            order.Customer.FullName = Marker;
            db.Orders.Insert(order);

            db.Database.Decrypt();

            Assert.False(File.Exists(path + ".rekey"));
            db.Orders.Insert(Orders.Create(2));
            Assert.Equal(2, db.Orders.Count());
            var refused = Assert.Throws<BLiteEncryptionException>(() => db.Database.Decrypt());
            Assert.Contains("not encrypted", refused.Message, StringComparison.Ordinal);
            Assert.Equal(2, db.Orders.Count());
        }

        Assert.True(File.ReadAllBytes(path).AsSpan().IndexOf(Encoding.UTF8.GetBytes(Marker)) >= 0);
        using (var db = new ShopContext(path))
        {
            Assert.Equal(Marker, db.Orders.Query().First(o => o.Customer.FullName == Marker).Customer.FullName);
            Assert.True(db.Database.Verify().IsValid);
        }
    }

    [Fact]
    public void A_failure_before_the_rename_leaves_the_database_plain_and_usable()
    {
        var path = _directory.File();
        var injected = false;
        using (var db = new ShopContext(path))
        {
            db.Orders.Insert(Orders.Create(1));
            db.Database.BeforeReplace = () =>
            {
                injected = true;
                throw new IOException("injected failure before the rename");
            };

            var failure = Assert.Throws<IOException>(() => db.Database.Rekey(BLiteEncryption.WithKey(Key)));

            Assert.True(injected);
            Assert.Contains("injected", failure.Message, StringComparison.Ordinal);
            Assert.False(File.Exists(path + ".rekey"));
            db.Orders.Insert(Orders.Create(2));
            Assert.Equal(2, db.Orders.Count());
        }

        using var reopened = new ShopContext(path);
        Assert.Equal(2, reopened.Orders.Count());
        Assert.True(reopened.Database.Verify().IsValid);
    }

    [Fact]
    public void A_new_key_that_cannot_be_used_is_refused_and_changes_nothing()
    {
        var path = _directory.File();
        using (var db = new ShopContext(path))
        {
            db.Orders.Insert(Orders.Create(1));
            var provider = new ShortKeyProvider();

            Assert.Throws<BLiteEncryptionException>(() => db.Database.Rekey(BLiteEncryption.WithKeyProvider(provider)));

            Assert.True(provider.Calls > 0);
            Assert.False(File.Exists(path + ".rekey"));
            db.Orders.Insert(Orders.Create(2));
        }

        using var reopened = new ShopContext(path);
        Assert.Equal(2, reopened.Orders.Count());
    }

    [Fact]
    public void A_failure_after_the_rename_is_reported_as_a_completed_rekey_under_the_new_key()
    {
        var path = _directory.File();
        using (var db = new ShopContext(path))
        {
            db.Orders.Insert(Orders.Create(1));
            db.Database.FlushDirectory = _ => throw new IOException("injected folder flush failure");

            var reported = Assert.Throws<BLiteException>(() => db.Database.Rekey(BLiteEncryption.WithKey(Key)));

            Assert.Contains("completed", reported.Message, StringComparison.Ordinal);
            Assert.Contains("injected folder flush failure", reported.Message, StringComparison.Ordinal);
            db.Orders.Insert(Orders.Create(2));
            Assert.Equal(2, db.Orders.Count());
        }

        Assert.Throws<BLiteEncryptionException>(() => new ShopContext(path));
        using var reopened = new ShopContext(Options(path, BLiteEncryption.WithKey(Key)));
        Assert.Equal(2, reopened.Orders.Count());
    }

    [Fact]
    public void Rekey_or_decrypt_inside_a_transaction_is_refused_and_changes_nothing()
    {
        var path = _directory.File();
        using var db = new ShopContext(Options(path, BLiteEncryption.WithKey(Key)));
        using (db.BeginTransaction())
        {
            Assert.Throws<InvalidOperationException>(() => db.Database.Rekey(BLiteEncryption.WithPassword("x")));
            Assert.Throws<InvalidOperationException>(() => db.Database.Decrypt());
        }

        db.Orders.Insert(Orders.Create(2));
        Assert.Equal(1, db.Orders.Count());
        Assert.False(File.Exists(path + ".rekey"));
    }

    private static void AssertNoMarkerOnDisk(string path)
    {
        foreach (var file in new[] { path, path + "-wal" }.Where(File.Exists))
        {
            var bytes = File.ReadAllBytes(file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(Marker)) < 0, file);
            Assert.True(bytes.AsSpan().IndexOf(Encoding.Unicode.GetBytes(Marker)) < 0, file);
        }
    }

    private static DocumentDbContextOptions Options(string path, BLiteEncryption encryption) => new() { Path = path, Encryption = encryption };

    private sealed class ShortKeyProvider : IKeyProvider
    {
        public int Calls { get; private set; }

        public ReadOnlyMemory<byte> GetKey(string databasePath)
        {
            Calls++;
            return new byte[16];
        }
    }

    private sealed class CountingKeyProvider : IKeyProvider
    {
        public int Calls { get; private set; }

        public ReadOnlyMemory<byte> GetKey(string databasePath)
        {
            Calls++;
            return Key;
        }
    }
}
