using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BLite.Bson.Jsonb;

/// <summary>
/// Writes one value in BLite's jsonb form (docs/postgresql.md, "Document representation"): values
/// JSON holds exactly as plain JSON, the others as tagged objects. Generated mappers call it to
/// write a document's jsonb straight from the object, and the C-BSON transcoder calls it for the
/// same values, so both paths produce one representation by construction.
/// </summary>
public static class JsonbMemberWriter
{
    /// <summary>Date text with seven fixed fraction digits: ordinal string order is tick order.</summary>
    public const string DateFormat = "yyyy-MM-dd'T'HH:mm:ss.fffffff";

    public const string DateOnlyFormat = "yyyy-MM-dd";

    private static readonly JsonEncodedText LongTag = JsonEncodedText.Encode("$long");
    private static readonly JsonEncodedText ULongTag = JsonEncodedText.Encode("$ulong");
    private static readonly JsonEncodedText DecimalTag = JsonEncodedText.Encode("$decimal");
    private static readonly JsonEncodedText DoubleTag = JsonEncodedText.Encode("$double");
    private static readonly JsonEncodedText DateTag = JsonEncodedText.Encode("$date");
    private static readonly JsonEncodedText KindTag = JsonEncodedText.Encode("$kind");
    private static readonly JsonEncodedText OffsetDateTag = JsonEncodedText.Encode("$dto");
    private static readonly JsonEncodedText OffsetTag = JsonEncodedText.Encode("$offset");
    private static readonly JsonEncodedText TimeSpanTag = JsonEncodedText.Encode("$timeSpan");
    private static readonly JsonEncodedText DateOnlyTag = JsonEncodedText.Encode("$dateOnly");
    private static readonly JsonEncodedText TimeOnlyTag = JsonEncodedText.Encode("$timeOnly");
    private static readonly JsonEncodedText ObjectIdTag = JsonEncodedText.Encode("$oid");
    private static readonly JsonEncodedText UuidTag = JsonEncodedText.Encode("$uuid");
    private static readonly JsonEncodedText BinaryTag = JsonEncodedText.Encode("$binary");
    private static readonly JsonEncodedText SubtypeTag = JsonEncodedText.Encode("$subtype");
    private static readonly JsonEncodedText Utf8Tag = JsonEncodedText.Encode("$utf8");

    /// <summary>PostgreSQL text cannot hold U+0000; such a string is kept as its UTF-8 bytes.</summary>
    public static void WriteString(Utf8JsonWriter json, string value)
    {
        if (value.Contains('\0', StringComparison.Ordinal))
        {
            json.WriteStartObject();
            json.WriteBase64String(Utf8Tag, Encoding.UTF8.GetBytes(value));
            json.WriteEndObject();
            return;
        }

        json.WriteStringValue(value);
    }

    public static void WriteInt64(Utf8JsonWriter json, long value)
    {
        json.WriteStartObject();
        json.WriteNumber(LongTag, value);
        json.WriteEndObject();
    }

    public static void WriteUInt64(Utf8JsonWriter json, ulong value)
    {
        json.WriteStartObject();
        json.WriteNumber(ULongTag, value);
        json.WriteEndObject();
    }

    /// <summary>
    /// A finite double other than -0.0 is a plain number in positional notation with a fraction
    /// (jsonb would turn <c>1E+20</c> into an integer and lose that it was a double); the others
    /// are tagged text.
    /// </summary>
    public static void WriteDouble(Utf8JsonWriter json, double value)
    {
        if (!double.IsFinite(value) || (value == 0 && double.IsNegative(value)))
        {
            json.WriteStartObject();
            json.WriteString(DoubleTag, double.IsNaN(value) ? "NaN" : value.ToString("R", CultureInfo.InvariantCulture));
            json.WriteEndObject();
            return;
        }

        Span<byte> text = stackalloc byte[40];
        if (value.TryFormat(text, out var written, "R", CultureInfo.InvariantCulture) && text[..written].IndexOf((byte)'E') < 0)
        {
            if (text[..written].IndexOf((byte)'.') < 0)
            {
                text[written++] = (byte)'.';
                text[written++] = (byte)'0';
            }

            json.WriteRawValue(text[..written], skipInputValidation: true);
            return;
        }

        json.WriteRawValue(JsonbNumbers.PositionalDouble(value), skipInputValidation: true);
    }

    /// <summary>
    /// A decimal keeps its scale as a jsonb number (numeric keeps trailing zeros). The text is the
    /// Decimal128 string form, so a value it would print with an exponent (below 10⁻⁶) or a
    /// negative zero is tagged text, exactly as the C-BSON transcoder writes it.
    /// </summary>
    public static void WriteDecimal(Utf8JsonWriter json, decimal value)
    {
        Span<byte> text = stackalloc byte[40];
        if ((value != 0 || !decimal.IsNegative(value)) && value.TryFormat(text, out var written, default, CultureInfo.InvariantCulture)
            && IsPlainDecimalText(text[..written]))
        {
            json.WriteStartObject();
            json.WritePropertyName(DecimalTag);
            json.WriteRawValue(text[..written], skipInputValidation: true);
            json.WriteEndObject();
            return;
        }

        WriteDecimal128(json, value);
    }

    /// <summary>NaN, infinities, -0 and exponent forms are tagged text; every other Decimal128 a tagged number.</summary>
    public static void WriteDecimal128(Utf8JsonWriter json, BsonDecimal128 value)
    {
        var text = value.ToString();
        json.WriteStartObject();
        json.WritePropertyName(DecimalTag);
        if (JsonbNumbers.IsPlainDecimal(text))
        {
            json.WriteRawValue(text, skipInputValidation: true);
        }
        else
        {
            json.WriteStringValue(text);
        }

        json.WriteEndObject();
    }

    public static void WriteGuid(Utf8JsonWriter json, Guid value)
    {
        Span<byte> text = stackalloc byte[36];
        value.TryFormat(text, out _, "D");
        json.WriteStartObject();
        json.WriteString(UuidTag, text);
        json.WriteEndObject();
    }

    public static void WriteObjectId(Utf8JsonWriter json, ObjectId value)
    {
        json.WriteStartObject();
        json.WriteString(ObjectIdTag, value.ToString());
        json.WriteEndObject();
    }

    /// <summary>The clock reading with all seven tick digits, then the Kind (0 Unspecified, 1 Utc, 2 Local).</summary>
    public static void WriteDateTime(Utf8JsonWriter json, DateTime value)
    {
        json.WriteStartObject();
        WriteInstant(json, DateTag, value);
        json.WriteNumber(KindTag, (int)value.Kind);
        json.WriteEndObject();
    }

    /// <summary>The UTC instant first (so it orders as an instant), then the offset in minutes.</summary>
    public static void WriteDateTimeOffset(Utf8JsonWriter json, DateTimeOffset value)
    {
        json.WriteStartObject();
        WriteInstant(json, OffsetDateTag, value.UtcDateTime);
        json.WriteNumber(OffsetTag, (int)(value.Offset.Ticks / TimeSpan.TicksPerMinute));
        json.WriteEndObject();
    }

    public static void WriteTimeSpan(Utf8JsonWriter json, TimeSpan value)
    {
        json.WriteStartObject();
        json.WriteNumber(TimeSpanTag, value.Ticks);
        json.WriteEndObject();
    }

    public static void WriteDateOnly(Utf8JsonWriter json, DateOnly value)
    {
        Span<byte> text = stackalloc byte[16];
        value.TryFormat(text, out var written, DateOnlyFormat, CultureInfo.InvariantCulture);
        json.WriteStartObject();
        json.WriteString(DateOnlyTag, text[..written]);
        json.WriteEndObject();
    }

    public static void WriteTimeOnly(Utf8JsonWriter json, TimeOnly value)
    {
        json.WriteStartObject();
        json.WriteNumber(TimeOnlyTag, value.Ticks);
        json.WriteEndObject();
    }

    /// <summary>Binary as base64 with its subtype; a 16-byte UUID as its RFC text, as a Guid is written.</summary>
    public static void WriteBinary(Utf8JsonWriter json, ReadOnlySpan<byte> bytes, BsonBinarySubtype subtype)
    {
        if (subtype == BsonBinarySubtype.Uuid && bytes.Length == 16)
        {
            WriteGuid(json, new Guid(bytes, bigEndian: true));
            return;
        }

        json.WriteStartObject();
        json.WriteBase64String(BinaryTag, bytes);
        json.WriteNumber(SubtypeTag, (byte)subtype);
        json.WriteEndObject();
    }

    /// <summary>A float32 vector as the binary vector payload C-BSON stores (subtype Vector).</summary>
    public static void WriteFloat32Vector(Utf8JsonWriter json, ReadOnlySpan<float> vector)
    {
        var size = BsonVector.Float32PayloadSize(vector.Length);
        var rented = ArrayPool<byte>.Shared.Rent(size);
        try
        {
            BsonVector.WriteFloat32(rented.AsSpan(0, size), vector);
            WriteBinary(json, rented.AsSpan(0, size), BsonBinarySubtype.Vector);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>A dictionary key as a stored key: one more <c>$</c> in front of a key that starts with <c>$</c>, so it is never taken for a tag.</summary>
    public static void WriteDictionaryKey(Utf8JsonWriter json, string key)
        => json.WritePropertyName(key.StartsWith('$') ? "$" + key : key);

    /// <summary>A document key of a converted id type (ObjectId, Guid, Int32, Int64 or String).</summary>
    public static void WriteKey(Utf8JsonWriter json, BsonValue key)
    {
        switch (key.Type)
        {
            case BsonType.ObjectId:
                WriteObjectId(json, key.AsObjectId);
                break;
            case BsonType.Binary:
                WriteGuid(json, key.AsGuid);
                break;
            case BsonType.Int32:
                json.WriteNumberValue(key.AsInt32);
                break;
            case BsonType.Int64:
                WriteInt64(json, key.AsInt64);
                break;
            case BsonType.String:
                WriteString(json, key.AsString);
                break;
            default:
                throw new Mapping.BsonMappingException($"An id key of type {key.Type} has no jsonb form.");
        }
    }

    private static void WriteInstant(Utf8JsonWriter json, JsonEncodedText tag, DateTime value)
    {
        Span<byte> text = stackalloc byte[32];
        if (!value.TryFormat(text, out var written, DateFormat, CultureInfo.InvariantCulture))
        {
            throw new InvalidOperationException($"The date {value:O} does not fit its jsonb text form.");
        }

        json.WriteString(tag, text[..written]);
    }

    /// <summary>Whether decimal text (always positional) is also the Decimal128 plain form: adjusted exponent at least −6.</summary>
    private static bool IsPlainDecimalText(ReadOnlySpan<byte> text)
    {
        var digits = text is [(byte)'-', ..] ? text[1..] : text;
        if (digits is not [(byte)'0', (byte)'.', ..])
        {
            return true;
        }

        var fraction = digits[2..];
        var firstSignificant = fraction.IndexOfAnyExcept((byte)'0');
        var adjusted = firstSignificant < 0 ? -fraction.Length : -(firstSignificant + 1);
        return adjusted >= -6;
    }
}
