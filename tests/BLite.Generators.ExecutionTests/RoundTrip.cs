using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using BLite.Bson;
using BLite.Bson.Jsonb;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests;

/// <summary>Serializes with a generated mapper and reads the bytes back.</summary>
internal static class RoundTrip
{
    public static byte[] ToBytes<TId, T>(IDocumentMapper<TId, T> mapper, T document)
        where T : class
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        mapper.Serialize(document, ref writer);
        return output.WrittenSpan.ToArray();
    }

    public static T FromBytes<TId, T>(IDocumentMapper<TId, T> mapper, byte[] bytes)
        where T : class
    {
        var reader = new BsonSpanReader(bytes);
        var document = mapper.Deserialize(ref reader);
        Assert.Equal(bytes.Length, reader.Position);
        return document;
    }

    /// <summary>Writes the one document whose fields <paramref name="write"/> writes, as a test builds one by hand.</summary>
    public static byte[] Document(WriteFields write)
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        var token = writer.BeginDocument();
        write(ref writer);
        writer.EndDocument(token);
        return output.WrittenSpan.ToArray();
    }

    public delegate void WriteFields(ref BsonSpanWriter writer);

    /// <summary>The document as the mapper writes its jsonb form.</summary>
    public static byte[] ToJsonb<T>(IJsonbDocumentMapper<T> mapper, T document)
        where T : class
    {
        var output = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(output, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            mapper.WriteJsonb(document, json);
        }

        return output.WrittenSpan.ToArray();
    }

    /// <summary>
    /// Round-trips through C-BSON and through jsonb and asserts deep equality of both copies; the
    /// jsonb copy must also serialize to the very C-BSON bytes of the original (nothing the jsonb
    /// form holds is lost or changed). Returns the copy read back from C-BSON.
    /// </summary>
    public static T AssertRoundTrips<TId, T>(IDocumentMapper<TId, T> mapper, T document)
        where T : class
    {
        var bytes = ToBytes(mapper, document);
        var copy = FromBytes(mapper, bytes);
        Assert.NotSame(document, copy);
        DeepEquality.AssertEqual(document, copy);

        var jsonb = (IJsonbDocumentMapper<T>)mapper;
        var fromJsonb = jsonb.ReadJsonb(ToJsonb(jsonb, document));
        Assert.NotSame(document, fromJsonb);
        DeepEquality.AssertEqual(document, fromJsonb);
        Assert.Equal(bytes, ToBytes(mapper, fromJsonb));
        return copy;
    }
}
