using BLite.Bson;
using BLite.Bson.Interop;
using BLite.Core.Collections;
using BLite.Core;

namespace BLite.Cli.Tests.Commands;

public class ExportImportCommandTests
{
    /// <summary>Every BLite type, for the JSON lines round trip (canonical Extended JSON keeps them all).</summary>
    private static BsonDocument EveryType(int id) => new()
    {
        { "_id", id },
        { "double", -0.0 },
        { "string", "héllo 😀 \"q\" \n" },
        { "nested", new BsonDocument { { "a", new BsonArray { 1, "two", BsonValue.Null } } } },
        { "binary", new byte[] { 0, 1, 255 } },
        { "guid", Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") },
        { "oid", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e") },
        { "bool", true },
        { "int64", 5L },
        { "uint64", ulong.MaxValue },
        { "decimal", 1.50m },
        { "utc", new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567) },
        { "local", new DateTime(638_000_000_000_000_001, DateTimeKind.Local) },
        { "offset", new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-345)).AddTicks(7) },
        { "timeSpan", TimeSpan.FromTicks(-123456789) },
        { "dateOnly", new DateOnly(2024, 3, 15) },
        { "timeOnly", new TimeOnly(13, 14, 15).Add(TimeSpan.FromTicks(9)) },
    };

    [Fact]
    public void Json_lines_export_then_import_into_a_new_database_gives_equal_documents()
    {
        using var directory = new TempDirectory();
        var source = directory.File("source.blite");
        var expected = Enumerable.Range(1, 30).Select(EveryType).ToList();
        using (var database = DocumentDatabase.Open(source))
        {
            database.GetCollection("things").InsertMany(expected);
        }

        var export = BliteProcess.Run("export", source, "things", "--output", directory.File("things.jsonl"));
        CliAssert.Succeeded(export);
        Assert.Equal($"exported 30 document(s) from 'things' to {directory.File("things.jsonl")}\n", export.Stdout);
        Assert.Equal(30, File.ReadAllLines(directory.File("things.jsonl")).Length);

        var target = directory.File("target.blite");
        var import = BliteProcess.Run("import", target, "things", directory.File("things.jsonl"));
        CliAssert.Succeeded(import);
        Assert.Equal("imported 30 document(s) into 'things'\n", import.Stdout);

        AssertSameDocuments(expected, TestDatabases.ReadAll(target, "things"));
    }

    [Fact]
    public void Legacy_json_import_accepts_bare_number_dates_that_the_default_refuses()
    {
        using var directory = new TempDirectory();
        var input = directory.File("old.jsonl");
        File.WriteAllText(input, "{\"_id\":1,\"at\":{\"$date\":1577836800000}}\n");
        var target = directory.File("target.blite");

        var refused = BliteProcess.Run("import", target, "events", input);
        Assert.NotEqual(0, refused.ExitCode);
        Assert.Contains("--legacy-json", refused.Stderr);
        Assert.False(File.Exists(target));

        var import = BliteProcess.Run("import", target, "events", input, "--legacy-json");
        CliAssert.Succeeded(import);
        var document = Assert.Single(TestDatabases.ReadAll(target, "events"));
        Assert.Equal(new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc), document["at"].AsDateTime);

        var bson = BliteProcess.Run("import", target, "events", input, "--legacy-json", "--format", "bson");
        Assert.NotEqual(0, bson.ExitCode);
        Assert.Contains("--legacy-json", bson.Stderr);
    }

    [Fact]
    public void Json_lines_export_to_standard_output_is_one_document_per_line()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 4);

        var result = BliteProcess.Run("export", path, "orders", "--relaxed");

        CliAssert.Succeeded(result);
        Assert.Equal(Enumerable.Range(1, 4).Select(i => TestDatabases.Order(i).ToJson()), result.StdoutLines);
    }

    [Fact]
    public void Bson_export_writes_standard_bson_that_imports_into_a_new_database()
    {
        using var directory = new TempDirectory();
        var source = directory.File("shop.blite");
        TestDatabases.CreateShop(source, orders: 50);
        var dump = directory.File("orders.bson");

        var export = BliteProcess.Run("export", source, "orders", "--output", dump);
        CliAssert.Succeeded(export);

        // The file is plain standard BSON: documents back to back, readable without BLite's catalog.
        using (var stream = File.OpenRead(dump))
        {
            Assert.Equal(Enumerable.Range(1, 50).Select(TestDatabases.Order), StandardBsonReader.ReadDocuments(stream));
        }

        var target = directory.File("copy.blite");
        var import = BliteProcess.Run("import", target, "orders", dump);
        CliAssert.Succeeded(import);
        Assert.Equal("imported 50 document(s) into 'orders'\n", import.Stdout);
        AssertSameDocuments(TestDatabases.ReadAll(source, "orders"), TestDatabases.ReadAll(target, "orders"));
    }

    [Fact]
    public void Bson_export_to_standard_output_and_import_from_standard_input()
    {
        using var directory = new TempDirectory();
        var source = directory.File("shop.blite");
        TestDatabases.CreateShop(source, orders: 10);
        var export = BliteProcess.Run("export", source, "orders", "--format", "bson");
        CliAssert.Succeeded(export);
        Assert.Equal(StandardBsonDump(Enumerable.Range(1, 10).Select(TestDatabases.Order)), export.StdoutBytes);

        var target = directory.File("copy.blite");
        var import = BliteProcess.Run(["import", target, "orders", "-", "--format", "bson"], null, export.StdoutBytes);

        CliAssert.Succeeded(import);
        AssertSameDocuments(TestDatabases.ReadAll(source, "orders"), TestDatabases.ReadAll(target, "orders"));
    }

    [Fact]
    public void Import_of_a_bad_json_line_names_the_line_and_imports_nothing()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);
        var input = directory.File("bad.jsonl");
        File.WriteAllText(input, "{\"_id\":100}\n{\"_id\":101,}\n{\"_id\":102}\n");

        var result = BliteProcess.Run("import", path, "orders", input);

        CliAssert.FailedWithOneLine(result, 3, "line 2");
        Assert.Contains("nothing was imported", result.Stderr);
        Assert.Equal(Enumerable.Range(1, 3), TestDatabases.ReadAll(path, "orders").Select(d => d["_id"].AsInt32));
    }

    [Fact]
    public void Import_of_a_duplicate_id_fails_and_upsert_replaces()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 3);
        var input = directory.File("dup.jsonl");
        File.WriteAllText(input, "{\"_id\":2,\"status\":\"replaced\",\"customer\":{\"email\":\"new@example.com\"}}\n");

        var failed = BliteProcess.Run("import", path, "orders", input);
        CliAssert.FailedWithOneLine(failed, 3, "document 1 (_id 2)");

        var upserted = BliteProcess.Run("import", path, "orders", input, "--upsert");
        CliAssert.Succeeded(upserted);
        using var database = DocumentDatabase.Open(path);
        Assert.Equal("replaced", database.GetCollection("orders").FindById(2)!["status"].AsString);
    }

    [Fact]
    public void Import_in_batches_keeps_the_batches_committed_before_an_error_and_says_so()
    {
        using var directory = new TempDirectory();
        var path = directory.File("new.blite");
        var input = directory.File("five.jsonl");
        File.WriteAllText(input, "{\"_id\":1}\n{\"_id\":2}\n{\"_id\":3}\n{\"_id\":4}\n{\"_id\":5,\n");

        var result = BliteProcess.Run("import", path, "things", input, "--batch-size", "2");

        CliAssert.FailedWithOneLine(result, 3, "line 5");
        Assert.Contains("(4 document(s) committed in earlier batches were kept)", result.Stderr);
        Assert.Equal([1, 2, 3, 4], TestDatabases.ReadAll(path, "things").Select(d => d["_id"].AsInt32));
    }

    [Fact]
    public void Import_of_truncated_bson_fails_with_the_offset()
    {
        using var directory = new TempDirectory();
        var path = directory.File("new.blite");
        var dump = StandardBsonDump([new BsonDocument { { "_id", 1 } }, new BsonDocument { { "_id", 2 } }]);
        var input = directory.File("cut.bson");
        File.WriteAllBytes(input, dump[..^3]);

        var result = BliteProcess.Run("import", path, "things", input);

        CliAssert.FailedWithOneLine(result, 3, "at offset");
        Assert.False(File.Exists(path), "a failed import must not leave a new database behind");
    }

    private static byte[] StandardBsonDump(IEnumerable<BsonDocument> documents)
    {
        var stream = new MemoryStream();
        foreach (var document in documents)
        {
            StandardBsonWriter.WriteTo(document, stream);
        }

        return stream.ToArray();
    }

    private static void AssertSameDocuments(IReadOnlyList<BsonDocument> expected, IReadOnlyList<BsonDocument> actual)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i].ToJson(BsonJsonMode.Canonical), actual[i].ToJson(BsonJsonMode.Canonical));
        }
    }
}
