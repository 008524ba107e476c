using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using BLite.Bson;
using BLite.PostgreSql.Jsonb;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>
/// The reader's fast paths (names looked up without a string, unescaped strings copied as bytes)
/// read escaped and plain text alike: jsonb text in, C-BSON, and the same document written back.
/// </summary>
public sealed class JsonbTextTests
{
    [Fact]
    public void Escaped_plain_dollar_and_long_names_and_strings_read_back_unchanged()
    {
        var longName = new string('n', 200);
        var stored = "{\"plain\": \"ünï ß\", \"esc\\\"aped\": \"a \\\"quoted\\\"\\n line \\u00e9\", \"$$dollar\": \"x\", \"" + longName + "\": \"y\", \"half\": 2.5, \"again\": {\"plain\": \"z\"}}";
        var fields = new BsonFieldDictionary();
        fields.GetOrAdd("plain");

        var bson = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(Encoding.UTF8.GetBytes(stored), ref writer, fields);
        writer.Flush();

        var text = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(text, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            JsonbWriter.WriteDocument(bson.WrittenSpan, json, fields);
        }

        Assert.Equal(
            "{\"plain\":\"ünï ß\",\"esc\\\"aped\":\"a \\\"quoted\\\"\\n line é\",\"$$dollar\":\"x\",\"" + longName + "\":\"y\",\"half\":2.5,\"again\":{\"plain\":\"z\"}}",
            Encoding.UTF8.GetString(text.WrittenSpan));
        Assert.True(fields.TryGetId("$dollar", out _), "a $$ name is stored under its own name");
        Assert.True(fields.TryGetId("esc\"aped", out _), "an escaped name is stored unescaped");
    }
}
