namespace BLite.Cli.Tests.Commands;

public class CollectionsAndIndexesCommandTests
{
    [Fact]
    public void Collections_lists_names_one_per_line_in_order()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        var result = BliteProcess.Run("collections", path);

        CliAssert.Succeeded(result);
        Assert.Equal("customers\norders\n", result.Stdout);
    }

    [Fact]
    public void Indexes_lists_the_primary_key_and_secondary_indexes_with_fields_and_uniqueness()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        var result = BliteProcess.Run("indexes", path);

        CliAssert.Succeeded(result);
        var rows = result.StdoutLines.Select(Columns).ToList();
        Assert.Equal(["collection", "index", "fields", "unique"], rows[0]);
        Assert.Contains(["customers", "_id", "_id", "yes (primary key)"], rows);
        Assert.Contains(["orders", "_id", "_id", "yes (primary key)"], rows);
        Assert.Contains(["orders", "by_status", "status", "no"], rows);
        Assert.Contains(["orders", "by_email", "customer.email", "yes"], rows);
        Assert.Equal(5, rows.Count);
    }

    [Fact]
    public void Indexes_of_one_collection_lists_only_that_collection()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        var result = BliteProcess.Run("indexes", path, "customers");

        CliAssert.Succeeded(result);
        Assert.Equal(2, result.StdoutLines.Length);
        Assert.Equal(["customers", "_id", "_id", "yes (primary key)"], Columns(result.StdoutLines[1]));
    }

    [Fact]
    public void Indexes_of_a_missing_collection_names_the_ones_that_exist()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        var result = BliteProcess.Run("indexes", path, "order");

        CliAssert.FailedWithOneLine(result, 3, "collection 'order' does not exist; the database has customers, orders");
    }

    private static string[] Columns(string line) =>
        line.Split("  ", StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
