using BLite.Bson;
using BLite.Core;
using BLite.Tests.Model;

namespace BLite.Tests.Schemaless;

public sealed class BsonDocumentCollectionTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public BsonDocumentCollectionTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    private static List<BsonDocument> Events(int count) => Enumerable.Range(1, count)
        .Select(i => BsonDocument.Parse($$"""{ "kind": "{{(i % 3 == 0 ? "error" : "info")}}", "n": {{i}}, "source": { "host": "h{{i % 4}}" } }"""))
        .ToList();

    [Fact]
    public void Crud_on_a_schemaless_collection()
    {
        var events = _db.Database.GetCollection("events");
        var doc = BsonDocument.Parse("""{ "kind": "info", "n": 1 }""");

        var id = events.Insert(doc);
        Assert.Equal(id, doc["_id"]);
        Assert.Equal(1, events.FindById(id)!["n"].AsInt32);

        doc["n"] = 2;
        Assert.True(events.Update(doc));
        Assert.Equal(2, events.FindById(id)!["n"].AsInt32);
        Assert.False(events.Upsert(doc));
        Assert.True(events.Upsert(BsonDocument.Parse("""{ "_id": 7, "kind": "x" }""")));
        Assert.Equal(2, events.Count());
        Assert.True(events.Delete(id));
        Assert.Null(events.FindById(id));
        Assert.Equal(1, events.Count());
    }

    [Fact]
    public void Json_filters_find_count_and_delete_the_same_documents_as_a_scan()
    {
        var events = _db.Database.GetCollection("events");
        var all = Events(30);
        Assert.Equal(30, events.InsertMany(all));
        events.EnsureIndex("by_kind", "kind");

        var expected = all.Where(d => d["kind"].AsString == "error" && d["n"].AsInt32 > 10).Select(d => d["n"].AsInt32).ToList();
        Assert.Equal(expected, events.Find("""{ "kind": "error", "n": { "$gt": 10 } }""").Select(d => d["n"].AsInt32).Order().ToList());
        Assert.Equal(expected.Count, events.Count("""{ "kind": "error", "n": { "$gt": 10 } }"""));
        Assert.Equal(all.Count(d => d["source"].AsDocument["host"].AsString == "h1"), events.Find("""{ "source.host": "h1" }""").Count());
        Assert.True(events.Exists("""{ "n": 30 }"""));
        Assert.Null(events.FindOne("""{ "n": 31 }"""));
        Assert.Contains("by_kind", events.Explain("""{ "kind": "error" }"""));

        Assert.Equal(10, events.DeleteMany("""{ "kind": "error" }"""));
        Assert.Equal(20, events.Count());
        Assert.Empty(events.Find("""{ "kind": "error" }"""));
    }

    [Fact]
    public void Schemaless_writes_join_the_context_transaction()
    {
        var events = _db.Database.GetCollection("events");
        using (_db.BeginTransaction())
        {
            events.InsertMany(Events(3));
            _db.Orders.Insert(Orders.Create(1));
            Assert.Equal(3, events.FindAll().Count());
        }

        Assert.Equal(0, events.Count());
        Assert.Equal(0, _db.Orders.Count());
    }

    [Fact]
    public void A_malformed_json_filter_is_refused_with_a_clear_error()
    {
        var events = _db.Database.GetCollection("events");

        var error = Assert.ThrowsAny<Exception>(() => events.Find("""{ "n": { "$bogus": 1 } }""").ToList());

        Assert.Contains("$bogus", error.Message);
    }

    [Fact]
    public void A_unique_schemaless_index_refuses_duplicates()
    {
        var events = _db.Database.GetCollection("events");
        events.EnsureIndex("by_n", "n", unique: true);
        events.Insert(BsonDocument.Parse("""{ "n": 1 }"""));

        Assert.Throws<BLiteUniqueConstraintException>(() => events.Insert(BsonDocument.Parse("""{ "n": 1 }""")));
        Assert.Equal(1, events.Count());
    }
}
