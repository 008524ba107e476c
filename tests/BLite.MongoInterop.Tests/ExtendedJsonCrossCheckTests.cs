using System.Text.Json.Nodes;
using BLite.Bson;
using BLite.Bson.Interop;
using M = MongoDB.Bson;
using MongoJson = MongoDB.Bson.IO;

namespace BLite.MongoInterop.Tests;

/// <summary>
/// Extended JSON v2 both ways between MongoDB.Bson and BLite, in canonical and relaxed mode:
/// each parses the other's output to the same BSON bytes, and canonical output is the same JSON.
/// </summary>
public class ExtendedJsonCrossCheckTests
{
    public static TheoryData<string, bool> ElementsAndModes()
    {
        var data = new TheoryData<string, bool>();
        foreach (var element in MongoSamples.EveryType(1))
        {
            data.Add(element.Name, true);
            data.Add(element.Name, false);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ElementsAndModes))]
    public void Json_written_by_MongoDB_parses_in_BLite_to_the_same_bytes(string name, bool canonical)
    {
        var mongo = new M.BsonDocument(name, MongoSamples.EveryType(1)[name]);
        var json = MongoDB.Bson.BsonExtensionMethods.ToJson(mongo, Settings(canonical));

        var blite = BsonDocument.Parse(json);

        Assert.Equal(Convert.ToHexString(ExpectedAfterJson(mongo, canonical)), Convert.ToHexString(StandardBsonWriter.ToBytes(blite)));
    }

    [Theory]
    [MemberData(nameof(ElementsAndModes))]
    public void Json_written_by_BLite_parses_in_MongoDB_to_the_same_bytes(string name, bool canonical)
    {
        var mongo = new M.BsonDocument(name, MongoSamples.EveryType(1)[name]);
        var blite = StandardBsonReader.ReadDocument(MongoSamples.ToBson(mongo));
        var json = blite.ToJson(canonical ? BsonJsonMode.Canonical : BsonJsonMode.Relaxed);

        var parsedByMongo = M.BsonDocument.Parse(json);

        Assert.Equal(Convert.ToHexString(ExpectedAfterJson(mongo, canonical)), Convert.ToHexString(MongoSamples.ToBson(parsedByMongo)));
    }

    [Theory]
    [MemberData(nameof(ElementsAndModes))]
    public void BLite_writes_the_same_Extended_JSON_as_MongoDB(string name, bool canonical)
    {
        var mongo = new M.BsonDocument(name, MongoSamples.EveryType(1)[name]);
        var expected = NormalizeDoubles(JsonNode.Parse(MongoDB.Bson.BsonExtensionMethods.ToJson(mongo, Settings(canonical))));

        var blite = StandardBsonReader.ReadDocument(MongoSamples.ToBson(mongo));
        var actual = NormalizeDoubles(JsonNode.Parse(blite.ToJson(canonical ? BsonJsonMode.Canonical : BsonJsonMode.Relaxed)));

        Assert.True(JsonNode.DeepEquals(expected, actual), $"MongoDB: {expected!.ToJsonString()}\nBLite:   {actual!.ToJsonString()}");
    }

    /// <summary>
    /// Rewrites every double's text as its shortest round-trip form: MongoDB.Bson prints 17
    /// significant digits (4.9406564584124654E-324) where BLite prints the shortest string that
    /// reads back to the same bits (5E-324); both are the spec's "round-trips" form.
    /// </summary>
    private static JsonNode? NormalizeDoubles(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject obj when obj.Count == 1 && obj["$numberDouble"] is JsonValue text && text.GetValue<string>() is var s && s is not ("NaN" or "Infinity" or "-Infinity"):
                obj["$numberDouble"] = Shortest(s);
                break;
            case JsonObject obj:
                foreach (var name in obj.Select(p => p.Key).ToList())
                {
                    obj[name] = NormalizeDoubles(obj[name]?.DeepClone());
                }

                break;
            case JsonValue value when value.GetValueKind() == System.Text.Json.JsonValueKind.Number && value.ToJsonString() is var raw && raw.IndexOfAny(['.', 'e', 'E']) >= 0:
                return JsonValue.Create(Shortest(raw));
        }

        return node;
    }

    private static string Shortest(string text) =>
        double.Parse(text, System.Globalization.CultureInfo.InvariantCulture).ToString("R", System.Globalization.CultureInfo.InvariantCulture);

    private static MongoJson.JsonWriterSettings Settings(bool canonical) => new()
    {
        OutputMode = canonical ? MongoJson.JsonOutputMode.CanonicalExtendedJson : MongoJson.JsonOutputMode.RelaxedExtendedJson,
    };

    /// <summary>
    /// The bytes a JSON round trip must keep: all of them in canonical mode; in relaxed mode an
    /// Int64 that fits an Int32 comes back as Int32 (relaxed JSON writes both as plain numbers).
    /// </summary>
    private static byte[] ExpectedAfterJson(M.BsonDocument document, bool canonical)
    {
        if (canonical)
        {
            return MongoSamples.ToBson(document);
        }

        var relaxed = new M.BsonDocument();
        foreach (var element in document)
        {
            relaxed.Add(element.Name, element.Value is M.BsonInt64 { Value: >= int.MinValue and <= int.MaxValue } small ? new M.BsonInt32((int)small.Value) : element.Value);
        }

        return MongoSamples.ToBson(relaxed);
    }
}
