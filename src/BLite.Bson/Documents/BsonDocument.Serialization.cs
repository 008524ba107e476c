using System.Buffers;

using BLite.Bson;

namespace BLite;

public sealed partial class BsonDocument
{
    /// <summary>Writes the document, adding any new field names to <paramref name="dictionary"/>.</summary>
    public void WriteTo(ref BsonSpanWriter writer, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        var token = writer.BeginDocument();
        foreach (var field in _fields)
        {
            writer.WriteFieldHeader(field.Value.Type, dictionary.GetOrAdd(field.Key));
            field.Value.WriteTo(ref writer, dictionary);
        }

        writer.EndDocument(token);
    }

    /// <summary>
    /// Reads the document at the reader's position. Field ids unknown to the dictionary and
    /// duplicate fields are format errors.
    /// </summary>
    public static BsonDocument ReadFrom(ref BsonSpanReader reader, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        var document = new BsonDocument();
        reader.ReadDocumentStart();
        while (true)
        {
            var headerOffset = reader.Position;
            if (!reader.TryReadFieldHeader(out var type, out var fieldId))
            {
                return document;
            }

            if (!dictionary.TryGetName(fieldId, out var name))
            {
                throw new BsonFormatException($"Field id {fieldId} is not in the field-name dictionary", headerOffset);
            }

            var value = BsonValue.ReadFrom(ref reader, type, dictionary);
            if (document.ContainsKey(name))
            {
                throw new BsonFormatException($"Field \"{name}\" (id {fieldId}) appears twice in one document", headerOffset);
            }

            document.Append(name, value);
        }
    }

    public byte[] ToBytes(BsonFieldDictionary dictionary)
    {
        var output = new ArrayBufferWriter<byte>(256);
        var writer = new BsonSpanWriter(output);
        WriteTo(ref writer, dictionary);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Reads exactly one document; bytes after it are a format error.</summary>
    public static BsonDocument FromBytes(ReadOnlySpan<byte> bytes, BsonFieldDictionary dictionary)
    {
        var reader = new BsonSpanReader(bytes);
        var document = ReadFrom(ref reader, dictionary);
        if (reader.Position != bytes.Length)
        {
            throw new BsonFormatException($"{bytes.Length - reader.Position} unexpected bytes follow the document", reader.Position);
        }

        return document;
    }

    /// <summary>Parses Extended JSON v2 text (canonical or relaxed; see docs/json.md) holding one object.</summary>
    public static BsonDocument Parse(string json) => Parse(json, BsonJsonParseMode.Standard);

    /// <summary>Parses Extended JSON text holding one object; <see cref="BsonJsonParseMode.Legacy"/> also accepts <c>{"$date": &lt;number&gt;}</c>.</summary>
    public static BsonDocument Parse(string json, BsonJsonParseMode mode)
    {
        ArgumentNullException.ThrowIfNull(json);
        if (mode is not (BsonJsonParseMode.Standard or BsonJsonParseMode.Legacy))
        {
            throw new ArgumentOutOfRangeException(nameof(mode), mode, "Unknown JSON parse mode.");
        }

        return BsonJsonParser.ParseDocument(json, mode);
    }

    /// <summary>Extended JSON v2 text; relaxed by default (see docs/json.md).</summary>
    public string ToJson(BsonJsonMode mode = BsonJsonMode.Relaxed) => BsonJsonWriter.Write(this, mode);
}
