using System.IO.Compression;
using BLite.Bson;
using BLite.Cli.Commands;
using BLite.Core;
using BLite.Core.Storage;

namespace BLite.Cli.Tests.Commands;

/// <summary>
/// The fixtures in Fixtures/ were written by BLite at commit e375ec5 (catalog format 1, numbers
/// keyed by type), so these tests upgrade real old files, not imitations.
/// </summary>
public class UpgradeCommandTests
{
    [Fact]
    public void A_format_1_database_is_refused_with_the_upgrade_command_to_run()
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, "format1-plain.blite");
        var before = File.ReadAllBytes(path);

        var refusal = Assert.ThrowsAny<BLiteException>(() => DocumentDatabase.Open(path));

        Assert.Contains($"blite upgrade {path}", refusal.Message);
        Assert.Equal(before, File.ReadAllBytes(path));
    }

    [Fact]
    public void Upgrade_rewrites_every_collection_with_its_indexes_in_the_current_format()
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, "format1-plain.blite");

        var result = BliteProcess.Run("upgrade", path);

        CliAssert.Succeeded(result);
        Assert.Equal($"upgraded '{path}' to the current format.", result.Stdout.Trim());
        Assert.False(File.Exists(path + ".upgrade"));
        using var database = DocumentDatabase.Open(path);
        Assert.True(database.Verify().IsValid);
        Assert.Equal(["items", "people"], database.GetCollectionNames().Order(StringComparer.Ordinal));
        var items = database.GetCollection("items");
        Assert.Equal(["by_code", "by_n"], items.GetIndexes().Select(index => index.Name).Order(StringComparer.Ordinal));
        Assert.True(items.GetIndexes().Single(index => index.Name == "by_code").Unique);
        // In the current format every number is one key class: the _id order and the index order
        // interleave integers, doubles and decimals by value.
        Assert.Equal([-7, 1, 2.5, 3.25, 4], items.FindAll().Select(d => d["_id"].ToDouble()));
        Assert.Equal([3.25, -7, 2.5, 1, 4], items.FindByIndexRange("by_n", null, null).Select(d => d["_id"].ToDouble()));
        Assert.Equal("d", items.FindById(4.0)!["code"].AsString);
        Assert.Equal(2.5, items.FindByIndex("by_code", "b").Single()["_id"].ToDouble());
        Assert.Equal(-7, items.FindByIndex("by_code", 7.5m).Single()["_id"].ToDouble());
        var people = database.GetCollection("people");
        Assert.Equal(["bob"], people.FindByIndex("by_age", 27.5m).Select(d => d["_id"].AsString));
        Assert.Equal(["ann"], people.FindByIndex("by_age", 31L).Select(d => d["_id"].AsString));
    }

    [Fact]
    public void Upgrade_recovers_a_leftover_log_of_the_old_database_before_copying()
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, "format1-wal.blite");
        using (var compressed = new GZipStream(File.OpenRead(Fixture("format1-wal.blite-wal.gz")), CompressionMode.Decompress))
        using (var wal = File.Create(StorageEngine.WalPathFor(path)))
        {
            compressed.CopyTo(wal);
        }

        // The scenario: the two documents exist only in the log, not in the data file.
        using (var oldFileOnly = DocumentDatabase.Open(CopyFixture(directory, "format1-wal.blite", "file-only.blite"), new StorageOptions { ReadOnly = true, ReadsSeparateNumberKeys = true }))
        {
            Assert.Equal(0, oldFileOnly.GetRawCollection("items").Count(oldFileOnly.BeginRead()));
        }

        CliAssert.Succeeded(BliteProcess.Run("upgrade", path));

        using var database = DocumentDatabase.Open(path);
        var items = database.GetCollection("items");
        Assert.Equal([1, 2], items.FindAll().Select(d => d["_id"].AsInt32));
        Assert.Equal([2], items.FindByIndex("by_n", 2.5).Select(d => d["_id"].AsInt32));
    }

    [Theory]
    [InlineData("format1-unique-collision.blite", "unique index 'by_code' of collection 'items' holds two values equal to 1")]
    [InlineData("format1-id-collision.blite", "two documents of collection 'items' have _id values equal to 1")]
    public void Upgrade_refuses_numbers_that_are_one_key_now_and_changes_nothing(string fixture, string expected)
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, fixture);
        var before = File.ReadAllBytes(path);

        var result = BliteProcess.Run("upgrade", path);

        CliAssert.FailedWithOneLine(result, 3, expected);
        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.False(File.Exists(path + ".upgrade"));
        Assert.ThrowsAny<BLiteException>(() => DocumentDatabase.Open(path).Dispose());
    }

    [Fact]
    public void Upgrade_of_a_current_database_says_so_and_changes_nothing()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 10);
        var before = File.ReadAllBytes(path);

        var result = BliteProcess.Run("upgrade", path);

        CliAssert.Succeeded(result);
        Assert.Contains("already in the current format", result.Stdout);
        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.False(File.Exists(path + ".upgrade"));
    }

    [Fact]
    public void An_upgrade_failing_midway_leaves_the_old_database_intact_and_upgradable()
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, "format1-plain.blite");
        var before = File.ReadAllBytes(path);
        var copiedBeforeFailure = 0L;
        var context = new CommandContext(TextWriter.Null, TextWriter.Null, () => Stream.Null, () => Stream.Null, errorIsTerminal: false);

        var failure = Assert.Throws<IOException>(() => UpgradeCommand.Upgrade(path, context, done =>
        {
            copiedBeforeFailure = done;
            if (done == 3)
            {
                throw new IOException("injected failure in the middle of the copy");
            }
        }));

        Assert.Equal("injected failure in the middle of the copy", failure.Message);
        Assert.Equal(3, copiedBeforeFailure);
        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.False(File.Exists(path + ".upgrade"));
        CliAssert.Succeeded(BliteProcess.Run("upgrade", path));
        Assert.Equal(5, TestDatabases.ReadAll(path, "items").Count);
    }

    [Fact]
    public void A_copy_left_by_an_upgrade_killed_before_the_swap_is_named_and_the_old_database_kept()
    {
        using var directory = new TempDirectory();
        var path = CopyFixture(directory, "format1-plain.blite");
        File.WriteAllText(path + ".upgrade", "half written");
        var before = File.ReadAllBytes(path);

        var result = BliteProcess.Run("upgrade", path);

        CliAssert.FailedWithOneLine(result, 3, "interrupted upgrade");
        Assert.Equal(before, File.ReadAllBytes(path));
        File.Delete(path + ".upgrade");
        CliAssert.Succeeded(BliteProcess.Run("upgrade", path));
        Assert.Equal(2, TestDatabases.ReadAll(path, "people").Count);
    }

    private static string Fixture(string name) => Path.Combine(AppContext.BaseDirectory, "Fixtures", name);

    private static string CopyFixture(TempDirectory directory, string name, string? copyName = null)
    {
        var path = Path.GetFullPath(directory.File(copyName ?? name));
        File.Copy(Fixture(name), path);
        return path;
    }
}
