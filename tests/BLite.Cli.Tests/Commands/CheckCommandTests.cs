using BLite.Core.Collections;
using BLite.Core;

namespace BLite.Cli.Tests.Commands;

public class CheckCommandTests
{
    [Fact]
    public void Check_on_a_healthy_database_exits_zero()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 200);
        var pages = new FileInfo(path).Length / 8192;

        var result = BliteProcess.Run("check", path);

        CliAssert.Succeeded(result);
        Assert.Equal($"ok: {pages} pages (0 free), no problems found\n", result.Stdout);
    }

    [Fact]
    public void Check_on_a_damaged_page_exits_two_and_names_the_page()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 300);
        var pageCount = new FileInfo(path).Length / 8192;
        Assert.True(pageCount > 4, $"the test database has only {pageCount} pages");
        var damagedPage = pageCount - 1;

        using (var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite))
        {
            file.Position = (damagedPage * 8192) + 100;
            var bytes = new byte[16];
            file.ReadExactly(bytes);
            for (var i = 0; i < bytes.Length; i++)
            {
                bytes[i] ^= 0x5A;
            }

            file.Position = (damagedPage * 8192) + 100;
            file.Write(bytes);
        }

        var result = BliteProcess.Run("check", path);

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Contains($"page {damagedPage}", result.Stdout + result.Stderr);
        var stderr = result.Stderr.TrimEnd('\n').Split('\n');
        Assert.Single(stderr);
        Assert.StartsWith("blite: damage found:", stderr[0]);
        Assert.DoesNotContain("   at ", result.Stderr);
    }

    [Fact]
    public void Check_reports_damage_when_the_damaged_page_stops_the_database_from_opening()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5);

        // Page 1 is the catalog, read as the database opens.
        using (var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite))
        {
            file.Position = 8192 + 10;
            file.WriteByte(0xFF);
            file.WriteByte(0xEE);
        }

        var result = BliteProcess.Run("check", path);

        CliAssert.FailedWithOneLine(result, 2, "page 1");
    }

    [Fact]
    public void Checkpoint_reports_an_empty_wal_afterwards()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 10);

        var result = BliteProcess.Run("checkpoint", path);

        CliAssert.Succeeded(result);
        Assert.Equal("checkpoint complete: 0 pending committed transaction(s) applied; wal state: empty: every commit is in the database file\n", result.Stdout);
        using var database = DocumentDatabase.Open(path);
        Assert.Equal(10, database.GetCollection("orders").Count());
    }
}
