using System.Text;
using BLite.Bson;
using BLite.Core;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Cli.Tests.Commands;

public class EncryptionCommandTests
{
    private static readonly byte[] OldKey = [.. Enumerable.Range(1, 32).Select(i => (byte)i)];
    private static readonly byte[] NewKey = [.. Enumerable.Range(60, 32).Select(i => (byte)i)];

    [Fact]
    public void Rekey_encrypts_a_plain_database_then_every_command_needs_the_key_and_info_needs_none()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 60);
        var before = TestDatabases.ReadAll(path, "orders");
        Assert.True(Contains(File.ReadAllBytes(path), "c17@example.com"));

        var rekey = BliteProcess.RunWith(Env(("BLITE_NEW_KEY", Convert.ToHexString(NewKey))), "rekey", path);

        CliAssert.Succeeded(rekey);
        Assert.False(File.Exists(path + ".rekey"));
        Assert.False(Contains(File.ReadAllBytes(path), "c17@example.com"));
        Assert.Equal(before, TestDatabases.ReadAll(path, "orders", BLiteEncryption.WithKey(NewKey)));

        var info = BliteProcess.Run("info", path);
        CliAssert.Succeeded(info);
        Assert.Contains("encrypted BLite database, encryption format 2", info.Stdout, StringComparison.Ordinal);
        Assert.Contains("AES-256-GCM under a 32-byte key", info.Stdout, StringComparison.Ordinal);

        CliAssert.FailedWithOneLine(BliteProcess.Run("collections", path), 3, "is encrypted");
        CliAssert.FailedWithOneLine(BliteProcess.RunWith(Env(("BLITE_KEY", Convert.ToHexString(OldKey))), "collections", path), 3, "Wrong key");
        var listed = BliteProcess.RunWith(Env(("BLITE_KEY", Convert.ToBase64String(NewKey))), "collections", path);
        CliAssert.Succeeded(listed);
        Assert.Contains("orders", listed.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Rekey_moves_a_database_to_a_new_key_file_and_decrypt_brings_it_back_to_plain()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 30, BLiteEncryption.WithKey(OldKey));
        var before = TestDatabases.ReadAll(path, "orders", BLiteEncryption.WithKey(OldKey));
        var oldKeyFile = directory.File("old.key");
        var newKeyFile = directory.File("new.key");
        File.WriteAllBytes(oldKeyFile, OldKey);
        File.WriteAllText(newKeyFile, Convert.ToHexString(NewKey) + "\n");

        CliAssert.Succeeded(BliteProcess.Run("rekey", path, "--key-file", oldKeyFile, "--new-key-file", newKeyFile));
        Assert.Throws<BLiteEncryptionException>(() => TestDatabases.ReadAll(path, "orders", BLiteEncryption.WithKey(OldKey)));
        Assert.Equal(before, TestDatabases.ReadAll(path, "orders", BLiteEncryption.WithKey(NewKey)));

        var check = BliteProcess.Run("check", path, "--key-file", newKeyFile);
        CliAssert.Succeeded(check);

        CliAssert.Succeeded(BliteProcess.Run("rekey", path, "--key-file", newKeyFile, "--decrypt"));
        Assert.Equal(before, TestDatabases.ReadAll(path, "orders"));
    }

    [Fact]
    public void A_key_is_never_taken_on_the_command_line_and_a_bad_key_file_is_named()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5, BLiteEncryption.WithKey(OldKey));
        var bad = directory.File("bad.key");
        File.WriteAllText(bad, "not a key");

        CliAssert.FailedWithOneLine(BliteProcess.Run("collections", path, "--key", Convert.ToHexString(OldKey)), 1, "unknown option '--key'");
        CliAssert.FailedWithOneLine(BliteProcess.Run("collections", path, "--key-file", bad), 3, "does not hold a 32-byte key");
        CliAssert.FailedWithOneLine(BliteProcess.Run("rekey", path, "--key-file", bad), 3, "does not hold a 32-byte key");
        CliAssert.FailedWithOneLine(BliteProcess.RunWith(Env(("BLITE_KEY", Convert.ToHexString(OldKey))), "rekey", path), 1, "no new key");
    }

    [Fact]
    public void A_password_from_the_environment_encrypts_and_opens_and_two_keys_at_once_are_refused()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 10);
        var before = TestDatabases.ReadAll(path, "orders");
        Assert.True(Contains(File.ReadAllBytes(path), "c7@example.com"));

        CliAssert.Succeeded(BliteProcess.RunWith(Env(("BLITE_NEW_PASSWORD", "correct horse battery")), "rekey", path));
        Assert.False(Contains(File.ReadAllBytes(path), "c7@example.com"));
        Assert.Contains("a password (PBKDF2-HMAC-SHA256, 600,000 iterations)", BliteProcess.Run("info", path).Stdout, StringComparison.Ordinal);

        CliAssert.FailedWithOneLine(BliteProcess.RunWith(Env(("BLITE_PASSWORD", "wrong horse battery")), "collections", path), 3, "Wrong key");
        var listed = BliteProcess.RunWith(Env(("BLITE_PASSWORD", "correct horse battery")), "collections", path);
        CliAssert.Succeeded(listed);
        Assert.Contains("orders", listed.Stdout, StringComparison.Ordinal);
        CliAssert.FailedWithOneLine(BliteProcess.RunWith(Env(("BLITE_PASSWORD", "correct horse battery"), ("BLITE_KEY", Convert.ToHexString(OldKey))), "collections", path), 1, "give one key");
        Assert.Equal(before, TestDatabases.ReadAll(path, "orders", BLiteEncryption.WithPassword("correct horse battery")));
    }

    [Fact]
    public void Watch_and_backup_take_the_key_and_the_backup_stays_encrypted_under_it()
    {
        using var directory = new TempDirectory();
        var path = directory.File("feed.blite");
        var copy = directory.File("copy.blite");
        var keyFile = directory.File("feed.key");
        File.WriteAllBytes(keyFile, OldKey);
        using (var database = DocumentDatabase.Open(path, new StorageOptions { Encryption = BLiteEncryption.WithKey(OldKey) }, [new CollectionDefinition("events", changeFeed: ChangeFeedMode.On)]))
        {
            database.GetCollection("events").InsertMany(Enumerable.Range(1, 20).Select(i => new BsonDocument { ["_id"] = i, ["secret"] = "c17@example.com" }));
        }

        CliAssert.FailedWithOneLine(BliteProcess.Run("watch", path, "events", "--from", "oldest", "--count", "1"), 3, "is encrypted");
        var watched = BliteProcess.Run("watch", path, "events", "--from", "oldest", "--count", "20", "--key-file", keyFile);
        CliAssert.Succeeded(watched);
        Assert.Equal(20, watched.StdoutLines.Count(line => line.Contains("c17@example.com", StringComparison.Ordinal)));

        CliAssert.FailedWithOneLine(BliteProcess.Run("backup", path, copy), 3, "is encrypted");
        Assert.False(File.Exists(copy));
        CliAssert.Succeeded(BliteProcess.RunWith(Env(("BLITE_KEY", Convert.ToHexString(OldKey))), "backup", path, copy));

        Assert.False(Contains(File.ReadAllBytes(copy), "c17@example.com"));
        Assert.Contains("encrypted BLite database", BliteProcess.Run("info", copy).Stdout, StringComparison.Ordinal);
        CliAssert.Succeeded(BliteProcess.Run("check", copy, "--key-file", keyFile));
        var fromCopy = BliteProcess.Run("watch", copy, "--from", "oldest", "--count", "20", "--key-file", keyFile);
        CliAssert.Succeeded(fromCopy);
        Assert.Equal(watched.StdoutLines, fromCopy.StdoutLines);
        Assert.Equal(20, TestDatabases.ReadAll(copy, "events", BLiteEncryption.WithKey(OldKey)).Count);
    }

    [Fact]
    public void A_key_exported_in_the_shell_leaves_a_plain_database_readable_but_a_key_file_is_refused()
    {
        using var directory = new TempDirectory();
        var path = directory.File("plain.blite");
        TestDatabases.CreateShop(path, orders: 12);
        var before = File.ReadAllBytes(path);
        var keyFile = directory.File("shop.key");
        File.WriteAllBytes(keyFile, OldKey);

        var listed = BliteProcess.RunWith(Env(("BLITE_KEY", Convert.ToHexString(OldKey))), "collections", path);
        Assert.True(listed.ExitCode == 0, listed.ToString());
        Assert.Contains("orders", listed.Stdout, StringComparison.Ordinal);
        Assert.Equal(["blite: note: '" + path + "' is not encrypted; the key in BLITE_KEY or BLITE_PASSWORD is not used for it."], listed.Stderr.TrimEnd('\n').Split('\n'));

        var checkedWithPassword = BliteProcess.RunWith(Env(("BLITE_PASSWORD", "correct horse battery")), "check", path);
        Assert.True(checkedWithPassword.ExitCode == 0, checkedWithPassword.ToString());
        Assert.Contains("is not encrypted", checkedWithPassword.Stderr, StringComparison.Ordinal);

        CliAssert.FailedWithOneLine(BliteProcess.Run("collections", path, "--key-file", keyFile), 3, "is not encrypted, but an encryption key was given");
        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.True(Contains(before, "c7@example.com"));
    }

    private static Dictionary<string, string?> Env(params (string Name, string Value)[] variables)
    {
        var environment = new Dictionary<string, string?> { ["BLITE_KEY"] = null, ["BLITE_PASSWORD"] = null, ["BLITE_NEW_KEY"] = null, ["BLITE_NEW_PASSWORD"] = null };
        foreach (var (name, value) in variables)
        {
            environment[name] = value;
        }

        return environment;
    }

    private static bool Contains(byte[] bytes, string text) => bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(text)) >= 0;
}
