using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core;

namespace BLite.Cli.Tests.Commands;

public class CompactCommandTests
{
    [Fact]
    public void Compact_after_deleting_most_documents_makes_the_file_smaller_and_keeps_contents_and_indexes()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 1500);
        using (var database = DocumentDatabase.Open(path))
        {
            var orders = database.GetCollection("orders");
            using var write = database.BeginWrite();
            for (var id = 1; id <= 1500; id++)
            {
                if (id % 10 != 0)
                {
                    orders.Delete(write, id);
                }
            }

            write.Commit();
        }

        var sizeBefore = new FileInfo(path).Length;
        var ordersBefore = TestDatabases.ReadAll(path, "orders");
        var customersBefore = TestDatabases.ReadAll(path, "customers");

        var result = BliteProcess.Run("compact", path);

        CliAssert.Succeeded(result);
        Assert.StartsWith($"compacted '{Path.GetFullPath(path)}': ", result.Stdout);
        var sizeAfter = new FileInfo(path).Length;
        Assert.True(sizeAfter < sizeBefore / 2, $"{sizeBefore} -> {sizeAfter} bytes");
        Assert.False(File.Exists(path + ".compact"));
        Assert.Equal(ordersBefore, TestDatabases.ReadAll(path, "orders"));
        Assert.Equal(customersBefore, TestDatabases.ReadAll(path, "customers"));
        using (var database = DocumentDatabase.Open(path))
        {
            Assert.True(database.Verify().IsValid);
            var orders = database.GetCollection("orders");
            Assert.Equal(["by_email", "by_status"], orders.GetIndexes().Select(index => index.Name).Order(StringComparer.Ordinal));
            Assert.Equal([20, 40, 60], orders.FindByIndex("by_status", "pending").Take(3).Select(d => d["_id"].AsInt32));
        }

        CliAssert.Succeeded(BliteProcess.Run("check", path));
    }

    [Fact]
    public void Compact_refuses_to_overwrite_a_leftover_copy_and_leaves_the_original_untouched()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 20);
        File.WriteAllText(path + ".compact", "left over");
        var before = File.ReadAllBytes(path);

        var result = BliteProcess.Run("compact", path);

        CliAssert.FailedWithOneLine(result, 3, "interrupted compaction");
        Assert.Equal(before, File.ReadAllBytes(path));
        Assert.Equal("left over", File.ReadAllText(path + ".compact"));
    }

    [Fact]
    public void Compact_keeps_documents_with_every_field_name()
    {
        using var directory = new TempDirectory();
        var path = directory.File("wide.blite");
        using (var database = DocumentDatabase.Open(path))
        {
            database.GetCollection("a").Insert(new BsonDocument { { "_id", 1 }, { "x", 1 }, { "y", 2 } });
            database.GetCollection("b").Insert(new BsonDocument { { "_id", 1 }, { "z", new BsonDocument { { "x", 3 } } } });
        }

        CliAssert.Succeeded(BliteProcess.Run("compact", path));

        Assert.Equal([new BsonDocument { { "_id", 1 }, { "x", 1 }, { "y", 2 } }], TestDatabases.ReadAll(path, "a"));
        Assert.Equal([new BsonDocument { { "_id", 1 }, { "z", new BsonDocument { { "x", 3 } } } }], TestDatabases.ReadAll(path, "b"));
    }
}
