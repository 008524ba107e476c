using BLite.Bson;
using BLite.Core;

namespace BLite.Cli.Tests.Commands;

/// <summary>
/// The inspection commands open the database read-only: they work while an application holds
/// it open (a real second process, so the writer's lock is real) and leave the files unchanged.
/// </summary>
public sealed class ReadOnlyInspectionTests
{
    public static TheoryData<string[]> InspectionCommands => new()
    {
        new[] { "info" },
        new[] { "check" },
        new[] { "collections" },
        new[] { "indexes" },
        new[] { "stats" },
        new[] { "find", "orders", "{\"_id\":{\"$gte\":8}}" },
        new[] { "export", "orders" },
    };

    [Theory]
    [MemberData(nameof(InspectionCommands))]
    public void An_inspection_command_works_on_a_database_an_application_holds_open(string[] command)
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 8);
        using var application = DocumentDatabase.Open(path);
        // A commit only in the log: the read-only view must see it without applying it.
        application.GetCollection("orders").Insert(TestDatabases.Order(9));

        var result = BliteProcess.Run([command[0], path, .. command[1..]], workingDirectory: null, standardInput: null);

        CliAssert.Succeeded(result);
        Assert.NotEmpty(result.StdoutLines);
        if (command[0] is "find" or "export")
        {
            var ids = result.StdoutLines.Select(line => BsonDocument.Parse(line)["_id"].AsInt32).Order().ToList();
            Assert.Equal(command[0] == "find" ? [8, 9] : Enumerable.Range(1, 9).ToList(), ids);
        }

        application.GetCollection("orders").Insert(TestDatabases.Order(10));
        Assert.Equal(10, application.GetCollection("orders").Count());
    }

    [Fact]
    public void Check_on_read_only_files_changes_nothing()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5);
        var before = File.ReadAllBytes(path);
        File.SetAttributes(path, FileAttributes.ReadOnly);
        try
        {
            var result = BliteProcess.Run("check", path);

            CliAssert.Succeeded(result);
            Assert.Equal(before, File.ReadAllBytes(path));
            Assert.True(new FileInfo(path).IsReadOnly);
        }
        finally
        {
            File.SetAttributes(path, FileAttributes.Normal);
        }
    }
}
