using System.Text;
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

    private static DocumentDbContextOptions Options(string path, BLiteEncryption encryption) => new() { Path = path, Encryption = encryption };

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
