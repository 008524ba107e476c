using System.Globalization;
using System.Text;

namespace BLite.Bson;

/// <summary>Writes Extended JSON v2 with the BLite extensions described in docs/json.md.</summary>
internal static class BsonJsonWriter
{
    public const string UtcDateFormat = "yyyy-MM-dd'T'HH:mm:ss.FFFFFFF'Z'";
    public const string RelaxedDateFormat = "yyyy-MM-dd'T'HH:mm:ss.FFF'Z'";
    public const string ClockDateFormat = "yyyy-MM-dd'T'HH:mm:ss.FFFFFFF";
    public const string OffsetDateFormat = "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFzzz";
    public const string DateOnlyFormat = "yyyy-MM-dd";
    public const string TimeOnlyFormat = "HH:mm:ss.FFFFFFF";

    public static string Write(BsonDocument document, BsonJsonMode mode)
    {
        var builder = new StringBuilder();
        WriteDocument(builder, document, mode);
        return builder.ToString();
    }

    public static string Write(BsonArray array, BsonJsonMode mode)
    {
        var builder = new StringBuilder();
        WriteArray(builder, array, mode);
        return builder.ToString();
    }

    public static string Write(BsonValue value, BsonJsonMode mode)
    {
        var builder = new StringBuilder();
        WriteValue(builder, value, mode);
        return builder.ToString();
    }

    private static void WriteDocument(StringBuilder builder, BsonDocument document, BsonJsonMode mode)
    {
        builder.Append('{');
        var first = true;
        foreach (var field in document)
        {
            if (!first)
            {
                builder.Append(',');
            }

            first = false;
            WriteString(builder, field.Key);
            builder.Append(':');
            WriteValue(builder, field.Value, mode);
        }

        builder.Append('}');
    }

    private static void WriteArray(StringBuilder builder, BsonArray array, BsonJsonMode mode)
    {
        builder.Append('[');
        for (var i = 0; i < array.Count; i++)
        {
            if (i > 0)
            {
                builder.Append(',');
            }

            WriteValue(builder, array[i], mode);
        }

        builder.Append(']');
    }

    private static void WriteValue(StringBuilder builder, BsonValue value, BsonJsonMode mode)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (value.Type)
        {
            case BsonType.Null:
                builder.Append("null");
                break;
            case BsonType.Boolean:
                builder.Append(value.AsBoolean ? "true" : "false");
                break;
            case BsonType.String:
                WriteString(builder, value.AsString);
                break;
            case BsonType.Document:
                WriteDocument(builder, value.AsDocument, mode);
                break;
            case BsonType.Array:
                WriteArray(builder, value.AsArray, mode);
                break;
            case BsonType.Double:
                WriteDouble(builder, value.AsDouble, mode);
                break;
            case BsonType.Int32 when mode == BsonJsonMode.Relaxed:
                builder.Append(value.AsInt32.ToString(invariant));
                break;
            case BsonType.Int32:
                WriteWrapped(builder, "$numberInt", value.AsInt32.ToString(invariant));
                break;
            case BsonType.Int64 when mode == BsonJsonMode.Relaxed:
                builder.Append(value.AsInt64.ToString(invariant));
                break;
            case BsonType.Int64:
                WriteWrapped(builder, "$numberLong", value.AsInt64.ToString(invariant));
                break;
            case BsonType.UInt64:
                WriteWrapped(builder, "$numberULong", value.AsUInt64.ToString(invariant));
                break;
            case BsonType.Decimal128:
                WriteWrapped(builder, "$numberDecimal", value.AsDecimal128.ToString());
                break;
            case BsonType.ObjectId:
                WriteWrapped(builder, "$oid", value.AsObjectId.ToString());
                break;
            case BsonType.Binary:
                builder.Append("{\"$binary\":{\"base64\":\"").Append(Convert.ToBase64String(value.AsBinary))
                    .Append("\",\"subType\":\"").Append(((byte)value.BinarySubtype).ToString("x2", invariant)).Append("\"}}");
                break;
            case BsonType.DateTime:
                WriteDateTime(builder, value.AsDateTime, mode);
                break;
            case BsonType.UtcDateTime:
                WriteDateMilliseconds(builder, value.AsUtcDateTimeMilliseconds);
                break;
            default:
                if (!BsonJsonMongoTypes.TryWrite(builder, value, mode))
                {
                    WriteBLiteExtension(builder, value);
                }

                break;
        }
    }

    /// <summary>Appends the Extended JSON of a value (used for the MongoDB types' nested parts).</summary>
    internal static void AppendValue(StringBuilder builder, BsonValue value, BsonJsonMode mode) => WriteValue(builder, value, mode);

    internal static void AppendDocument(StringBuilder builder, BsonDocument document, BsonJsonMode mode) => WriteDocument(builder, document, mode);

    internal static void AppendString(StringBuilder builder, string value) => WriteString(builder, value);

    private static void WriteBLiteExtension(StringBuilder builder, BsonValue value)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (value.Type)
        {
            case BsonType.DateTimeOffset:
                WriteWrapped(builder, "$dateTimeOffset", value.AsDateTimeOffset.ToString(OffsetDateFormat, invariant));
                break;
            case BsonType.TimeSpan:
                WriteWrapped(builder, "$timeSpan", value.AsTimeSpan.ToString("c", invariant));
                break;
            case BsonType.DateOnly:
                WriteWrapped(builder, "$dateOnly", value.AsDateOnly.ToString(DateOnlyFormat, invariant));
                break;
            case BsonType.TimeOnly:
                WriteWrapped(builder, "$timeOnly", value.AsTimeOnly.ToString(TimeOnlyFormat, invariant));
                break;
            default:
                throw new InvalidOperationException($"No JSON form for type {value.Type}.");
        }
    }

    private static void WriteDouble(StringBuilder builder, double value, BsonJsonMode mode)
    {
        string text;
        if (double.IsNaN(value))
        {
            text = "NaN";
        }
        else if (double.IsInfinity(value))
        {
            text = value > 0 ? "Infinity" : "-Infinity";
        }
        else
        {
            text = value.ToString("R", CultureInfo.InvariantCulture);
            if (text.AsSpan().IndexOfAny('.', 'E') < 0)
            {
                // Keeps the number a double when read back: integers without a fraction parse as Int32/Int64.
                text += ".0";
            }

            if (mode == BsonJsonMode.Relaxed)
            {
                builder.Append(text);
                return;
            }
        }

        WriteWrapped(builder, "$numberDouble", text);
    }

    /// <summary>
    /// A UTC DateTime in whole milliseconds is a BSON datetime: canonical mode writes
    /// {"$date":{"$numberLong":"ms"}}, relaxed mode ISO-8601 for years 1970-9999. Sub-millisecond
    /// UTC ticks, Local and Unspecified kinds are BLite extensions that keep their ticks.
    /// </summary>
    private static void WriteDateTime(StringBuilder builder, DateTime value, BsonJsonMode mode)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (value.Kind)
        {
            case DateTimeKind.Utc when value.Ticks % TimeSpan.TicksPerMillisecond != 0:
                WriteWrapped(builder, "$date", value.ToString(UtcDateFormat, invariant));
                break;
            case DateTimeKind.Utc when mode == BsonJsonMode.Relaxed && value.Year >= 1970:
                WriteWrapped(builder, "$date", value.ToString(RelaxedDateFormat, invariant));
                break;
            case DateTimeKind.Utc:
                WriteDateMilliseconds(builder, (value.Ticks - DateTime.UnixEpoch.Ticks) / TimeSpan.TicksPerMillisecond);
                break;
            case DateTimeKind.Local:
                WriteWrapped(builder, "$dateLocal", value.ToString(ClockDateFormat, invariant));
                break;
            default:
                WriteWrapped(builder, "$dateUnspecified", value.ToString(ClockDateFormat, invariant));
                break;
        }
    }

    private static void WriteDateMilliseconds(StringBuilder builder, long milliseconds) =>
        builder.Append("{\"$date\":{\"$numberLong\":\"").Append(milliseconds.ToString(CultureInfo.InvariantCulture)).Append("\"}}");

    internal static void WriteWrapped(StringBuilder builder, string key, string text) =>
        builder.Append("{\"").Append(key).Append("\":\"").Append(text).Append("\"}");

    private static void WriteString(StringBuilder builder, string value)
    {
        builder.Append('"');
        var start = 0;
        for (var i = 0; i < value.Length; i++)
        {
            var c = value[i];
            if (c >= 0x20 && c != '"' && c != '\\' && !char.IsSurrogate(c))
            {
                continue;
            }

            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
                continue;
            }

            builder.Append(value, start, i - start);
            builder.Append(c switch
            {
                '"' => "\\\"",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                '\b' => "\\b",
                '\f' => "\\f",
                _ => "\\u" + ((int)c).ToString("x4", CultureInfo.InvariantCulture),
            });
            start = i + 1;
        }

        builder.Append(value, start, value.Length - start);
        builder.Append('"');
    }
}
