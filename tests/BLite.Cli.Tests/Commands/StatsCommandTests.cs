using System.Globalization;
using BLite.Core.Collections;
using BLite.Core;

namespace BLite.Cli.Tests.Commands;

public class StatsCommandTests
{
    [Fact]
    public void Stats_reports_pages_and_documents_per_collection()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 25);
        long orderBytes;
        using (var database = DocumentDatabase.Open(path))
        {
            orderBytes = database.GetCollection("orders").FindAll().Sum(document => (long)document.ToBytes(database.Fields).Length);
        }

        var result = BliteProcess.Run("stats", path);

        CliAssert.Succeeded(result);
        var lines = result.StdoutLines;
        Assert.Contains("page size    8192 bytes", lines);
        Assert.Contains("consistency  ok", lines);
        Assert.Contains(lines, line => line.StartsWith("pages        ", StringComparison.Ordinal) && line.EndsWith(" free)", StringComparison.Ordinal));
        var orders = Row(lines, "orders");
        Assert.Equal("25", orders[1]);
        Assert.Equal(orderBytes.ToString("N0", CultureInfo.InvariantCulture), orders[2]);
        Assert.Equal("3", orders[5]);
        var customers = Row(lines, "customers");
        Assert.Equal("3", customers[1]);
        Assert.Equal("1", customers[5]);
    }

    private static string[] Row(string[] lines, string collection) =>
        lines.Select(line => line.Split("  ", StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            .Single(columns => columns[0] == collection);
}
