using System.Buffers.Binary;
using System.Globalization;
using System.Text;
using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Collections.Indexes;

/// <summary>Readable text for an encoded key, for error messages: <c>"a@b.c"</c>, <c>(42, null)</c>.</summary>
internal static class IndexKeyText
{
    public static string Describe(ReadOnlySpan<byte> key)
    {
        try
        {
            var reader = new KeyReader(key);
            var parts = new List<string>();
            while (!reader.End)
            {
                parts.Add(DescribeComponent(ref reader));
            }

            return parts.Count == 1 ? parts[0] : "(" + string.Join(", ", parts) + ")";
        }
        catch (FormatException)
        {
            return "0x" + Convert.ToHexString(key);
        }
    }

    private static string DescribeComponent(ref KeyReader reader)
    {
        var culture = CultureInfo.InvariantCulture;
        switch (reader.PeekType())
        {
            case KeyType.Null:
                reader.ReadNull();
                return "null";
            case KeyType.MinKey:
                reader.ReadEncodedComponent();
                return "MinKey";
            case KeyType.MaxKey:
                reader.ReadEncodedComponent();
                return "MaxKey";
            case KeyType.Timestamp:
                var timestamp = BinaryPrimitives.ReadUInt64BigEndian(reader.ReadEncodedComponent()[1..]);
                return $"Timestamp({timestamp >> 32}, {(uint)timestamp})";
            case KeyType.Boolean:
                return reader.ReadBoolean() ? "true" : "false";
            case KeyType.Number:
                return DescribeNumber(reader.ReadNumber(), culture);
            case KeyType.String:
                return Quote(reader.ReadString());
            case KeyType.Binary:
                return "0x" + Convert.ToHexString(reader.ReadBinary());
            case KeyType.Guid:
                return reader.ReadGuid().ToString();
            case KeyType.ObjectId:
                return "ObjectId(" + Convert.ToHexString(reader.ReadObjectIdBytes()).ToLowerInvariant() + ")";
            case KeyType.DateTime:
                return reader.ReadDateTime().ToString("O", culture);
            case KeyType.DateTimeOffset:
                return reader.ReadDateTimeOffset().ToString("O", culture);
            case KeyType.DateOnly:
                return reader.ReadDateOnly().ToString("O", culture);
            case KeyType.TimeOnly:
                return reader.ReadTimeOnly().ToString("O", culture);
            case KeyType.TimeSpan:
                return reader.ReadTimeSpan().ToString("c", culture);
            default:
                return "0x" + Convert.ToHexString(reader.ReadEncodedComponent());
        }
    }

    private static string DescribeNumber(BsonValue value, CultureInfo culture) => value.Type switch
    {
        BsonType.Int64 => value.AsInt64.ToString(culture),
        BsonType.UInt64 => value.AsUInt64.ToString(culture),
        BsonType.Double => value.AsDouble.ToString("R", culture),
        _ => value.AsDecimal128 + "m",
    };

    private static string Quote(string value)
    {
        var builder = new StringBuilder(value.Length + 2).Append('"');
        foreach (var c in value)
        {
            if (c is '"' or '\\')
            {
                builder.Append('\\');
            }

            builder.Append(c);
        }

        return builder.Append('"').ToString();
    }
}
