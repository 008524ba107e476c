using BLite.Bson;

namespace BLite.Cli.Tests.Commands;

public class FindCommandTests
{
    [Fact]
    public void Find_prints_the_matching_documents_in_id_order()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 40);

        var result = BliteProcess.Run("find", path, "orders", """{"status":"shipped","total":{"$gte":30}}""");

        CliAssert.Succeeded(result);
        var expected = Enumerable.Range(1, 40).Select(TestDatabases.Order)
            .Where(order => order["status"].AsString == "shipped" && order["total"].AsInt32 >= 30)
            .Select(order => order["_id"].AsInt32).ToList();
        Assert.NotEmpty(expected);
        Assert.Equal(expected, Ids(result));
    }

    [Fact]
    public void Find_prints_documents_as_they_are_stored()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5);

        var result = BliteProcess.Run("find", path, "orders", """{"_id":3}""", "--canonical");

        CliAssert.Succeeded(result);
        Assert.Equal(TestDatabases.Order(3), BsonDocument.Parse(result.StdoutLines.Single()));
    }

    [Fact]
    public void Find_without_a_filter_prints_every_document()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 12);

        var result = BliteProcess.Run("find", path, "orders");

        CliAssert.Succeeded(result);
        Assert.Equal(Enumerable.Range(1, 12), Ids(result));
    }

    [Fact]
    public void Find_limit_and_skip_page_through_the_matches()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 40);

        var result = BliteProcess.Run("find", path, "orders", """{"status":"pending"}""", "--skip", "2", "--limit=3");

        CliAssert.Succeeded(result);
        Assert.Equal([12, 16, 20], Ids(result));
    }

    [Fact]
    public void Find_sort_descending_then_ascending_orders_by_field_paths()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 40);

        var result = BliteProcess.Run("find", path, "orders", "{}", "--sort", "-total,customer.name", "--limit", "5");

        CliAssert.Succeeded(result);
        var expected = Enumerable.Range(1, 40).Select(TestDatabases.Order)
            .OrderByDescending(order => order["total"].AsInt32)
            .ThenBy(order => order["customer"].AsDocument["name"].AsString, StringComparer.Ordinal)
            .ThenBy(order => order["_id"].AsInt32)
            .Take(5).Select(order => order["_id"].AsInt32).ToList();
        Assert.Equal(expected, Ids(result));
    }

    [Fact]
    public void Find_with_a_bad_filter_fails_with_one_line_and_usage_exit_code()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);

        var result = BliteProcess.Run("find", path, "orders", """{"total":{"$bogus":1}}""");

        CliAssert.FailedWithOneLine(result, 1, "bad filter");
    }

    [Fact]
    public void Find_with_a_number_out_of_range_is_a_usage_error_naming_the_literal()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);

        var result = BliteProcess.Run("find", path, "orders", "{\"total\":1e999}");

        CliAssert.FailedWithOneLine(result, 1, "1e999");
    }

    [Fact]
    public void Find_with_filter_that_is_not_json_fails_with_one_line()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);

        var result = BliteProcess.Run("find", path, "orders", "{status: shipped");

        CliAssert.FailedWithOneLine(result, 1, "bad filter");
    }

    [Fact]
    public void Find_with_a_bad_limit_fails_with_one_line()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);

        var result = BliteProcess.Run("find", path, "orders", "--limit", "ten");

        CliAssert.FailedWithOneLine(result, 1, "--limit needs a whole number");
    }

    [Fact]
    public void Find_in_a_missing_collection_fails_with_one_line()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);

        var result = BliteProcess.Run("find", path, "invoices");

        CliAssert.FailedWithOneLine(result, 3, "collection 'invoices' does not exist");
    }

    private static List<int> Ids(CliResult result) =>
        result.StdoutLines.Select(line => BsonDocument.Parse(line)["_id"].AsInt32).ToList();

    [Fact]
    public void Find_explain_prints_the_plan_using_the_status_index()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 10);

        var result = BliteProcess.Run("find", path, "orders", """{"status":"shipped","total":{"$gt":3}}""", "--explain");

        CliAssert.Succeeded(result);
        Assert.StartsWith("IXSCAN by_status (status)", result.StdoutLines[0]);
        Assert.Contains(result.StdoutLines, line => line.Contains("bounds: status = \"shipped\"", StringComparison.Ordinal));
    }

    [Fact]
    public void Find_sorted_by_an_indexed_field_with_a_limit_returns_the_first_documents_in_that_order()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 30);

        var result = BliteProcess.Run("find", path, "orders", "--sort", "-customer.email", "--limit", "4");

        CliAssert.Succeeded(result);
        var expected = Enumerable.Range(1, 30).Select(TestDatabases.Order)
            .OrderByDescending(order => order["customer"].AsDocument["email"].AsString, StringComparer.Ordinal)
            .Take(4).Select(order => order["_id"].AsInt32).ToList();
        Assert.Equal(expected, Ids(result));
    }
}
