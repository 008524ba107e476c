using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

public class JsonFilterParserTests
{
    [Theory]
    [InlineData("""{ "status": "shipped" }""", """{ "status": { "$eq": "shipped" } }""")]
    [InlineData("""{ "total": { "$gt": 100 } }""", """{ "total": { "$gt": 100 } }""")]
    [InlineData("""{ "status": "shipped", "total": { "$gt": 100 } }""", """{ "$and": [ { "status": { "$eq": "shipped" } }, { "total": { "$gt": 100 } } ] }""")]
    [InlineData("""{ "total": { "$gte": 1, "$lt": 5 } }""", """{ "$and": [ { "total": { "$gte": 1 } }, { "total": { "$lt": 5 } } ] }""")]
    [InlineData("""{ "customer.email": { "$ne": null } }""", """{ "customer.email": { "$ne": null } }""")]
    [InlineData("""{ "tags": { "$in": ["a", "b"] } }""", """{ "tags": { "$in": ["a","b"] } }""")]
    [InlineData("""{ "tags": { "$nin": [] } }""", """{ "tags": { "$nin": [] } }""")]
    [InlineData("""{ "x": { "$exists": false } }""", """{ "x": { "$exists": false } }""")]
    [InlineData("""{ "$or": [ { "a": 1 }, { "b": 2 } ] }""", """{ "$or": [ { "a": { "$eq": 1 } }, { "b": { "$eq": 2 } } ] }""")]
    [InlineData("""{ "$nor": [ { "a": 1 } ] }""", """{ "$not": { "$or": [ { "a": { "$eq": 1 } } ] } }""")]
    [InlineData("""{ "a": { "$not": { "$gt": 5 } } }""", """{ "$not": { "a": { "$gt": 5 } } }""")]
    [InlineData("""{ "lines": { "$elemMatch": { "qty": { "$gt": 2 } } } }""", """{ "lines": { "$elemMatch": { "qty": { "$gt": 2 } } } }""")]
    [InlineData("""{ "scores": { "$elemMatch": { "$gte": 80 } } }""", """{ "scores": { "$elemMatch": { "$": { "$gte": 80 } } } }""")]
    [InlineData("""{ "name": { "$startsWith": "Jo" } }""", """{ "name": { "$startsWith": "Jo" } }""")]
    [InlineData("""{}""", """{}""")]
    public void Parses_mongo_style_filters(string json, string expected) =>
        Assert.Equal(expected, JsonFilterParser.Parse(json).ToString());

    [Fact]
    public void Extended_json_values_become_typed_constants()
    {
        var filter = (AndFilter)JsonFilterParser.Parse("""
            {
              "_id": { "$oid": "65f1a2b3c4d5e6f708192a3b" },
              "placedAt": { "$gte": { "$date": "2024-05-01T10:00:00Z" } },
              "big": { "$numberLong": "9000000000" },
              "price": { "$numberDecimal": "19.99" },
              "key": { "$uuid": "00112233-4455-6677-8899-aabbccddeeff" },
              "small": 7,
              "ratio": 0.5
            }
            """);
        var values = filter.Filters.Cast<ComparisonFilter>().Select(c => c.Value.Constant).ToList();
        Assert.Equal(ObjectId.Parse("65f1a2b3c4d5e6f708192a3b"), values[0].AsObjectId);
        Assert.Equal(new DateTime(2024, 5, 1, 10, 0, 0, DateTimeKind.Utc), values[1].AsDateTime);
        Assert.Equal(9_000_000_000L, values[2].AsInt64);
        Assert.Equal(19.99m, values[3].AsDecimal);
        Assert.Equal(Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"), values[4].AsGuid);
        Assert.Equal(BsonType.Int32, values[5].Type);
        Assert.Equal(BsonType.Double, values[6].Type);
    }

    [Fact]
    public void An_embedded_document_literal_means_whole_document_equality()
    {
        var filter = (ComparisonFilter)JsonFilterParser.Parse("""{ "address": { "city": "Oslo", "zip": "0150" } }""");
        Assert.Equal(BsonType.Document, filter.Value.Constant.Type);
        Assert.Equal("Oslo", filter.Value.Constant.AsDocument["city"].AsString);
    }

    [Theory]
    [InlineData("""{ "total": { "$gtx": 5 } }""", "$gtx", 13)]
    [InlineData("""{ "$where": "1" }""", "$where", 2)]
    [InlineData("""{ "a": { "$in": 5 } }""", "$in", 9)]
    [InlineData("""{ "a": { "$exists": "yes" } }""", "$exists", 9)]
    [InlineData("""{ "a": { "$gt": 1, "b": 2 } }""", "b", 19)]
    [InlineData("""{ "a": { "$oid": "nothex" } }""", "$oid", 9)]
    [InlineData("""{ "a": { "$not": 5 } }""", "$not", 9)]
    public void Unknown_or_misused_operators_are_named_with_their_position(string json, string token, long position)
    {
        var error = Assert.Throws<JsonFilterException>(() => JsonFilterParser.Parse(json));
        Assert.Equal(token, error.Token);
        Assert.Equal(position, error.Position);
        Assert.Contains(token, error.Message);
        Assert.Contains("offset " + position, error.Message);
    }

    [Theory]
    [InlineData("""{ "a": 1""")]
    [InlineData("""{ "a": }""")]
    [InlineData("""[ 1 ]""")]
    [InlineData("""{ "a": 1 } { }""")]
    [InlineData("")]
    [InlineData("""{ "$and": [] }""")]
    [InlineData("""{ "a..b": 1 }""")]
    public void Malformed_filters_are_rejected_with_a_filter_exception(string json) =>
        Assert.Throws<JsonFilterException>(() => JsonFilterParser.Parse(json));

    [Theory]
    [InlineData("1e999")]
    [InlineData("-1e999")]
    [InlineData("1e400")]
    public void A_number_out_of_the_range_of_a_double_is_rejected_naming_the_literal(string literal)
    {
        var error = Assert.Throws<JsonFilterException>(() => JsonFilterParser.Parse("{ \"n\": " + literal + " }"));
        Assert.Contains(literal, error.Message, StringComparison.Ordinal);
        Assert.Contains("out of the range", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_parsed_filter_evaluates_like_the_equivalent_built_filter()
    {
        var dictionary = new BsonFieldDictionary();
        var documents = new[]
        {
            BsonDocument.Parse("""{ "status": "shipped", "total": 150 }"""),
            BsonDocument.Parse("""{ "status": "shipped", "total": 50 }"""),
            BsonDocument.Parse("""{ "status": "pending", "total": 500 }"""),
        };
        var encoded = documents.Select(d => d.ToBytes(dictionary)).ToList();
        var evaluator = FilterEvaluator.Create(JsonFilterParser.Parse("""{ "status": "shipped", "total": { "$gt": 100 } }"""), dictionary);
        var matches = encoded.Select(bytes => evaluator.Matches(bytes)).ToArray();
        Assert.Equal([true, false, false], matches);
    }
}
