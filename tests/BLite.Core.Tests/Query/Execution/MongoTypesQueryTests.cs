using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>The MongoDB interop types in schemaless collections: stored exactly, filtered, sorted and indexed in MongoDB's cross-type order.</summary>
public class MongoTypesQueryTests
{
    private static readonly BsonValue[] _values =
    [
        BsonValue.MaxKey, new BsonTimestamp(5, 1), "s", 3, BsonValue.MinKey, new BsonTimestamp(1, 9), BsonValue.Null, BsonDecimal128.Parse("2.50"),
    ];

    [Fact]
    public void Indexed_field_sorts_MinKey_first_and_MaxKey_last_and_finds_each_by_equality()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_v", "v");
        items.InsertMany(_values.Select((v, i) => new BsonDocument { { "_id", i }, { "v", v } }).ToList());

        var sorted = items.Find((QueryFilter?)null, [new SortKey("v")]).Select(d => d["v"]).ToList();
        var scanned = items.FindAll().Select(d => d["v"]).Order().ToList();

        Assert.Equal([4, 6, 7, 3, 2, 5, 1, 0], items.Find((QueryFilter?)null, [new SortKey("v")]).Select(d => d["_id"].AsInt32));
        Assert.Equal(scanned, sorted);
        Assert.Contains("IXSCAN by_v", items.Explain(null, [new SortKey("v")], take: 3));
        Assert.Equal([4], items.Find(QueryFilter.Eq("v", BsonValue.MinKey)).Select(d => d["_id"].AsInt32));
        Assert.Equal([0], items.Find(QueryFilter.Eq("v", BsonValue.MaxKey)).Select(d => d["_id"].AsInt32));
        Assert.Equal([1], items.Find("""{ "v": { "$gt": { "$timestamp": { "t": 1, "i": 9 } } } }""").Select(d => d["_id"].AsInt32));
        Assert.StartsWith("IXSCAN by_v", items.Explain(QueryFilter.Eq("v", new BsonTimestamp(5, 1))));
    }

    [Fact]
    public void Every_type_is_stored_exactly_and_filtered_by_a_scan()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        var document = new BsonDocument
        {
            { "_id", 1 },
            { "regex", new BsonRegex("^a", "i") },
            { "code", new BsonJavaScriptWithScope("x", new BsonDocument { { "x", 1 } }) },
            { "symbol", new BsonSymbol("sym") },
            { "pointer", new BsonDbPointer("db.c", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e")) },
            { "undefined", BsonValue.Undefined },
            { "nan", BsonDecimal128.NaN },
            { "exponent", BsonDecimal128.Parse("1E+3") },
            { "farFuture", BsonValue.FromUnixMilliseconds(long.MaxValue) },
        };
        items.Insert(document);

        var found = items.FindById(1)!;

        Assert.Equal(document, found);
        Assert.True(found["exponent"].AsDecimal128.BitsEqual(BsonDecimal128.Parse("1E+3")));
        Assert.Single(items.Find("""{ "regex": { "$regularExpression": { "pattern": "^a", "options": "i" } } }"""));
        Assert.Single(items.Find("""{ "symbol": "sym" }"""));
        Assert.Single(items.Find("""{ "exponent": 1000 }"""));
        Assert.Single(items.Find("""{ "nan": { "$numberDecimal": "NaN" } }"""));
        Assert.Empty(items.Find("""{ "exponent": { "$gt": { "$numberDecimal": "Infinity" } } }"""));
    }

    [Fact]
    public void An_indexed_Decimal128_field_orders_every_value_numerically_with_NaN_first()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_d", "d");
        string[] texts = ["1E+100", "NaN", "5", "-Infinity", "1E+3", "-1E-6000", "Infinity", "0E+9"];
        items.InsertMany(texts.Select((t, i) => new BsonDocument { { "_id", i }, { "d", BsonDecimal128.Parse(t) } }).ToList());

        var sorted = items.Find((QueryFilter?)null, [new SortKey("d")]).Select(d => d["d"].AsDecimal128.ToString());

        Assert.Equal(["NaN", "-Infinity", "-1E-6000", "0E+9", "5", "1E+3", "1E+100", "Infinity"], sorted);
        Assert.Contains("IXSCAN by_d", items.Explain(null, [new SortKey("d")], take: 3));
        Assert.Equal([4], items.FindByIndex("by_d", 1000m).Select(d => d["_id"].AsInt32));
        Assert.Equal([4], items.Find("""{ "d": 1000 }""").Select(d => d["_id"].AsInt32));
        Assert.True(items.Find("""{ "d": { "$numberDecimal": "1E+3" } }""").Single()["d"].AsDecimal128.BitsEqual(BsonDecimal128.Parse("1E+3")));
    }
}
