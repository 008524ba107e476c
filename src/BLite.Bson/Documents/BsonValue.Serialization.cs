using BLite.Bson;

namespace BLite;

public readonly partial struct BsonValue
{
    /// <summary>
    /// Writes the value bytes only; the caller writes the header (<see cref="BsonSpanWriter.WriteFieldHeader"/>
    /// or <see cref="BsonSpanWriter.WriteItemHeader"/>) with <see cref="Type"/> first.
    /// </summary>
    public void WriteTo(ref BsonSpanWriter writer, BsonFieldDictionary dictionary)
    {
        switch (Type)
        {
            case BsonType.Null:
                break;
            case BsonType.Double:
                writer.WriteDouble(AsDouble);
                break;
            case BsonType.String:
                writer.WriteString(AsString);
                break;
            case BsonType.Document:
                AsDocument.WriteTo(ref writer, dictionary);
                break;
            case BsonType.Array:
                AsArray.WriteTo(ref writer, dictionary);
                break;
            case BsonType.Binary:
                if (_reference is byte[] bytes)
                {
                    writer.WriteBinary(bytes, _subtype);
                }
                else
                {
                    Span<byte> inline = stackalloc byte[16];
                    WriteInline(inline);
                    writer.WriteBinary(inline, _subtype);
                }

                break;
            case BsonType.ObjectId:
                writer.WriteObjectId(AsObjectId);
                break;
            case BsonType.Boolean:
                writer.WriteBoolean(AsBoolean);
                break;
            case BsonType.Int32:
                writer.WriteInt32(AsInt32);
                break;
            case BsonType.Int64:
                writer.WriteInt64(AsInt64);
                break;
            case BsonType.UInt64:
                writer.WriteUInt64(AsUInt64);
                break;
            case BsonType.Decimal128:
                writer.WriteDecimal128(AsDecimal128);
                break;
            case BsonType.DateTime:
                writer.WriteDateTime(AsDateTime);
                break;
            case BsonType.DateTimeOffset:
                writer.WriteDateTimeOffset(AsDateTimeOffset);
                break;
            case BsonType.TimeSpan:
                writer.WriteTimeSpan(AsTimeSpan);
                break;
            case BsonType.DateOnly:
                writer.WriteDateOnly(AsDateOnly);
                break;
            case BsonType.TimeOnly:
                writer.WriteTimeOnly(AsTimeOnly);
                break;
            case BsonType.Undefined or BsonType.MinKey or BsonType.MaxKey:
                break;
            case BsonType.UtcDateTime:
                writer.WriteUtcDateTimeMilliseconds(_bits);
                break;
            case BsonType.Timestamp:
                writer.WriteTimestamp(AsTimestamp);
                break;
            case BsonType.Regex:
                writer.WriteRegex(AsRegex);
                break;
            case BsonType.JavaScript or BsonType.Symbol:
                writer.WriteString((string)_reference!);
                break;
            case BsonType.DbPointer:
                writer.WriteDbPointer(AsDbPointer);
                break;
            case BsonType.JavaScriptWithScope:
                var code = AsJavaScriptWithScope;
                var token = writer.BeginJavaScriptWithScope(code.Code);
                code.Scope.WriteTo(ref writer, dictionary);
                writer.EndJavaScriptWithScope(token);
                break;
            default:
                throw new InvalidOperationException($"BsonValue holds an unknown type 0x{(byte)_type:X2}.");
        }
    }

    /// <summary>Reads one value of <paramref name="type"/> (its header already read).</summary>
    public static BsonValue ReadFrom(ref BsonSpanReader reader, BsonType type, BsonFieldDictionary dictionary) => type switch
    {
        BsonType.Null => default,
        BsonType.Double => reader.ReadDouble(),
        BsonType.String => reader.ReadString(),
        BsonType.Document => BsonDocument.ReadFrom(ref reader, dictionary),
        BsonType.Array => BsonArray.ReadFrom(ref reader, dictionary),
        BsonType.Binary => ReadBinaryValue(ref reader),
        BsonType.ObjectId => reader.ReadObjectId(),
        BsonType.Boolean => reader.ReadBoolean(),
        BsonType.Int32 => reader.ReadInt32(),
        BsonType.Int64 => reader.ReadInt64(),
        BsonType.UInt64 => reader.ReadUInt64(),
        BsonType.Decimal128 => reader.ReadDecimal128(),
        BsonType.DateTime => reader.ReadDateTime(),
        BsonType.DateTimeOffset => reader.ReadDateTimeOffset(),
        BsonType.TimeSpan => reader.ReadTimeSpan(),
        BsonType.DateOnly => reader.ReadDateOnly(),
        BsonType.TimeOnly => reader.ReadTimeOnly(),
        BsonType.Undefined => Undefined,
        BsonType.MinKey => MinKey,
        BsonType.MaxKey => MaxKey,
        BsonType.UtcDateTime => new BsonValue(BsonType.UtcDateTime, reader.ReadUtcDateTimeMilliseconds()),
        BsonType.Timestamp => reader.ReadTimestamp(),
        BsonType.Regex => reader.ReadRegex(),
        BsonType.JavaScript => new BsonJavaScript(reader.ReadString()),
        BsonType.Symbol => new BsonSymbol(reader.ReadString()),
        BsonType.DbPointer => reader.ReadDbPointer(),
        BsonType.JavaScriptWithScope => ReadJavaScriptWithScope(ref reader, dictionary),
        _ => throw new BsonFormatException($"Unknown C-BSON type code 0x{(byte)type:X2}", reader.Position),
    };

    private static BsonValue ReadJavaScriptWithScope(ref BsonSpanReader reader, BsonFieldDictionary dictionary)
    {
        var end = reader.BeginJavaScriptWithScope(out var code);
        var scope = BsonDocument.ReadFrom(ref reader, dictionary);
        reader.EndJavaScriptWithScope(end);
        return new BsonJavaScriptWithScope(code, scope);
    }

    private static BsonValue ReadBinaryValue(ref BsonSpanReader reader)
    {
        var bytes = reader.ReadBinary(out var subtype);
        return FromBinary(bytes, subtype);
    }
}
