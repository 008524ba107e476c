using BLite.Core;
using BLite.Core.Collections;
using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class ReadOnlyContextTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_read_only_context_reads_a_database_another_context_holds_open_and_refuses_every_write()
    {
        var path = _directory.File();
        using var writer = new ShopContext(path);
        var id = writer.Orders.Insert(Orders.Create(1));
        writer.Orders.Insert(Orders.Create(2));

        using var reader = new ShopContext(new DocumentDbContextOptions { Path = path, ReadOnly = true });

        Assert.Equal(2, reader.Orders.Count());
        Assert.Equal(Orders.Create(1).OrderNumber, reader.Orders.FindById(id)!.OrderNumber);
        var insert = Assert.Throws<BLiteException>(() => reader.Orders.Insert(Orders.Create(3)));
        Assert.Contains("read-only", insert.Message, StringComparison.Ordinal);
        Assert.Throws<BLiteException>(() => reader.Orders.Delete(id));
        Assert.Throws<BLiteException>(() => reader.BeginTransaction());
        Assert.Throws<BLiteException>(reader.Database.Checkpoint);
        Assert.False(reader.Database.AcceptsWrites);
        Assert.Equal("the database was opened read-only", reader.Database.WriteRefusalReason);

        writer.Orders.Insert(Orders.Create(4));
        Assert.Equal(3, writer.Orders.Count());
    }

    [Fact]
    public void A_read_only_context_does_not_create_its_declared_collections()
    {
        var path = _directory.File();
        DocumentDatabase.Open(path).Dispose();
        var before = File.ReadAllBytes(path);

        using (var reader = new ShopContext(new DocumentDbContextOptions { Path = path, ReadOnly = true }))
        {
            Assert.Equal(0, reader.Orders.Count());
            Assert.Empty(reader.Database.GetCollectionNames());
        }

        Assert.Equal(before, File.ReadAllBytes(path));
    }
}
