using BLite.Bson;

namespace BLite.Tests.Schemaless;

public sealed class BsonDocumentCollectionAsyncTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly Model.ShopContext _db;

    public BsonDocumentCollectionAsyncTests()
    {
        _db = new Model.ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public async Task Async_schemaless_operations_match_the_synchronous_ones()
    {
        var events = _db.Database.GetCollection("events");
        var doc = BsonDocument.Parse("""{ "kind": "info", "n": 1 }""");

        var id = await events.InsertAsync(doc);
        await events.InsertAsync(BsonDocument.Parse("""{ "kind": "error", "n": 2 }"""));
        Assert.Equal(1, (await events.FindByIdAsync(id))!["n"].AsInt32);
        doc["n"] = 5;
        Assert.True(await events.UpdateAsync(doc));
        Assert.False(await events.UpsertAsync(doc));
        Assert.Equal(5, (await events.FindAsync("""{ "kind": "info" }""").ToListAsync()).Single()["n"].AsInt32);
        Assert.Equal(2, await events.CountAsync());
        Assert.Equal(1, await events.CountAsync("""{ "n": { "$lte": 2 } }"""));
        Assert.Equal(1, await events.DeleteManyAsync("""{ "kind": "error" }"""));
        Assert.True(await events.DeleteAsync(id));
        Assert.Equal(0, await events.CountAsync());
    }
}
