using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using BLite.Bson;
using BLite.PostgreSql.Jsonb;

namespace BLite.Cli.Migration;

/// <summary>Moving one document between the file's C-BSON and PostgreSQL's jsonb, and comparing the two.</summary>
internal static class MigrationDocuments
{
    private static readonly JsonWriterOptions JsonOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true };

    public static byte[] ToJsonb(ReadOnlySpan<byte> document, BsonFieldDictionary fields)
    {
        var json = new ArrayBufferWriter<byte>(document.Length * 2 + 64);
        using (var writer = new Utf8JsonWriter(json, JsonOptions))
        {
            JsonbWriter.WriteDocument(document, writer, fields);
        }

        return json.WrittenSpan.ToArray();
    }

    public static byte[] ToBson(byte[] jsonb, BsonFieldDictionary fields)
    {
        var output = new ArrayBufferWriter<byte>(jsonb.Length + 64);
        var writer = new BsonSpanWriter(output);
        JsonbReader.ReadDocument(jsonb, ref writer, fields);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }

    /// <summary>The document's <c>_id</c> value.</summary>
    public static BsonValue Id(ReadOnlySpan<byte> document, BsonFieldDictionary fields)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        if (!fields.TryGetId(BsonFieldDictionary.IdFieldName, out var idField) || !reader.TryFindField(idField, out var type))
        {
            throw new BsonFormatException("The document has no _id", 0);
        }

        return BsonValue.ReadFrom(ref reader, type, fields);
    }

    /// <summary>
    /// The document's bytes with every document's fields in ordinal name order: jsonb keeps its own
    /// key order, so two copies of a document compare byte for byte in this form.
    /// </summary>
    public static byte[] Canonical(ReadOnlySpan<byte> document, BsonFieldDictionary fields) =>
        Sorted(BsonDocument.FromBytes(document, fields)).ToBytes(fields);

    private static BsonDocument Sorted(BsonDocument document)
    {
        var sorted = new BsonDocument();
        foreach (var name in document.Names.Order(StringComparer.Ordinal))
        {
            sorted.Add(name, Sorted(document[name]));
        }

        return sorted;
    }

    private static BsonValue Sorted(BsonValue value)
    {
        if (value.Type == BsonType.Document)
        {
            return Sorted(value.AsDocument);
        }

        if (value.Type != BsonType.Array)
        {
            return value;
        }

        var items = new BsonArray();
        foreach (var item in value.AsArray)
        {
            items.Add(Sorted(item));
        }

        return items;
    }
}
