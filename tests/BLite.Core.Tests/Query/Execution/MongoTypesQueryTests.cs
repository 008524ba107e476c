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

    [Fact]
    public void An_index_on_mixed_numeric_types_answers_cross_type_ranges_and_every_Decimal128_constant()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        BsonValue[] numbers =
        [
            3, 2L, 2.5, BsonDecimal128.Parse("2.6"), BsonDecimal128.Parse("1E+1"), 0.1, BsonDecimal128.Parse("0.1"), BsonDecimal128.NaN,
            double.PositiveInfinity, BsonDecimal128.Parse("1E+400"), (ulong)long.MaxValue + 1, "3", BsonDecimal128.Parse("-1E-400"), 2.5m,
        ];
        items.InsertMany(numbers.Select((n, i) => new BsonDocument { { "_id", i }, { "n", n } }).ToList());

        int[] Ids(string filter)
        {
            Assert.StartsWith("IXSCAN by_n", items.Explain(JsonFilterParser.Parse(filter)));
            return items.Find(filter).Select(d => d["_id"].AsInt32).Order().ToArray();
        }

        Assert.Equal([0, 3, 4, 8, 9, 10], Ids("""{ "n": { "$gt": 2.5 } }"""));
        Assert.Equal([1, 2, 13], Ids("""{ "n": { "$gte": 2, "$lte": { "$numberDecimal": "2.50" } } }"""));
        Assert.Equal([2, 13], Ids("""{ "n": 2.5 }"""));
        Assert.Equal([5], Ids("""{ "n": 0.1 }"""));
        Assert.Equal([6], Ids("""{ "n": { "$numberDecimal": "0.1" } }"""));
        Assert.Equal([7], Ids("""{ "n": { "$numberDecimal": "NaN" } }"""));
        Assert.Equal([8], Ids("""{ "n": { "$numberDecimal": "Infinity" } }"""));
        Assert.Equal([8, 9], Ids("""{ "n": { "$gte": { "$numberDecimal": "1E+300" } } }"""));
        Assert.Equal([12], Ids("""{ "n": { "$lt": { "$numberDecimal": "-1E-6000" }, "$gt": { "$numberDecimal": "-Infinity" } } }"""));

        var sorted = items.Find((QueryFilter?)null, [new SortKey("n")]).Select(d => d["n"]).ToList();
        Assert.Contains("IXSCAN by_n", items.Explain(null, [new SortKey("n")], take: 3));
        Assert.Equal(items.FindAll().Select(d => d["n"]).Order().ToList(), sorted);
    }

    [Fact]
    public void Equal_numbers_of_different_types_are_one_id_and_one_unique_value_as_in_MongoDB()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_code", "code", unique: true);
        items.Insert(new BsonDocument { { "_id", 1 }, { "code", 2.5 } });

        Assert.ThrowsAny<BLiteException>(() => items.Insert(new BsonDocument { { "_id", 1.0 }, { "code", 7 } }));
        Assert.Throws<BLiteUniqueConstraintException>(() => items.Insert(new BsonDocument { { "_id", 2 }, { "code", BsonDecimal128.Parse("2.50") } }));
        items.Insert(new BsonDocument { { "_id", 2 }, { "code", BsonDecimal128.Parse("2.6") } });

        Assert.Equal(1, items.FindById(BsonDecimal128.Parse("1E+0"))!["_id"].AsInt32);
        Assert.Equal(2, items.Find("""{ "code": { "$gt": 2.5 } }""").Single()["_id"].AsInt32);
    }
}
