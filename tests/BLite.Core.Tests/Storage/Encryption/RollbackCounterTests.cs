using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>
/// A key provider that also keeps a rollback counter outside the files (IRollbackCounter): the
/// database file and its log put back together from an older copy, which nothing in the files can
/// tell, is refused.
/// </summary>
public class RollbackCounterTests
{
    [Fact]
    public void Both_files_put_back_from_an_older_copy_are_refused_when_the_key_provider_keeps_a_counter()
    {
        var keystore = new CountingKeystore(EncryptionTestKeys.Key);
        var options = Options(keystore);
        using var db = new TestDatabase(options);
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 1);
        db.Engine.Dispose();
        var olderFile = File.ReadAllBytes(db.Path);
        var olderLog = File.ReadAllBytes(db.WalPath);
        var olderCounter = keystore.Counters[db.Path];

        db.Reopen();
        PageData.Commit(db.Engine, page, 2);
        db.Engine.Dispose();
        Assert.True(keystore.Counters[db.Path] > olderCounter);
        var newerFile = File.ReadAllBytes(db.Path);
        var newerLog = File.ReadAllBytes(db.WalPath);

        File.WriteAllBytes(db.Path, olderFile);
        File.WriteAllBytes(db.WalPath, olderLog);
        var exception = Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, options));
        Assert.Contains("rolled back", exception.Message, StringComparison.Ordinal);
        Assert.Equal(olderFile, File.ReadAllBytes(db.Path));

        File.WriteAllBytes(db.Path, newerFile);
        File.WriteAllBytes(db.WalPath, newerLog);
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(2, PageData.Read(read, page));
    }

    [Fact]
    public void A_crash_and_a_key_rotation_keep_the_counter_behind_or_level_with_the_file()
    {
        var keystore = new CountingKeystore(EncryptionTestKeys.Key);
        using var db = new TestDatabase(Options(keystore));
        var page = EncryptionTestKeys.WriteMarkerPage(db.Engine, 3);
        db.CrashAndReopen();
        var rotated = new CountingKeystore(EncryptionTestKeys.OtherKey, keystore.Counters);
        var before = keystore.Counters[db.Path];

        db.Engine.Rekey(BLiteEncryption.WithKeyProvider(rotated));

        Assert.True(keystore.Counters[db.Path] > before);
        PageData.Commit(db.Engine, page, 4);
        db.Reopen(Options(rotated));
        using var read = db.Engine.BeginRead();
        Assert.Equal(4, PageData.Read(read, page));
    }

    private static StorageOptions Options(CountingKeystore keystore) => new()
    {
        PageSize = 4096,
        Encryption = BLiteEncryption.WithKeyProvider(keystore),
    };

    /// <summary>A keystore holding one key and, per database path, the last checkpoint counter it was told.</summary>
    private sealed class CountingKeystore(byte[] key, Dictionary<string, long>? counters = null) : IKeyProvider, IRollbackCounter
    {
        public Dictionary<string, long> Counters { get; } = counters ?? [];

        public ReadOnlyMemory<byte> GetKey(string databasePath) => key;

        public long GetCounter(string databasePath) => Counters.GetValueOrDefault(databasePath);

        public void SetCounter(string databasePath, long counter)
        {
            Assert.True(counter > GetCounter(databasePath), $"the counter went from {GetCounter(databasePath)} to {counter}");
            Counters[databasePath] = counter;
        }
    }
}
