using BLite.Bson;

namespace BLite;

/// <summary>Implicit conversions follow the .NET type mapping in docs/format.md, section 1.</summary>
public readonly partial struct BsonValue
{
    public static implicit operator BsonValue(double value) => new(BsonType.Double, BitConverter.DoubleToInt64Bits(value));

    public static implicit operator BsonValue(float value) => new(BsonType.Double, BitConverter.DoubleToInt64Bits(value));

    public static implicit operator BsonValue(string? value) => value is null ? default : new(BsonType.String, 0, 0, value);

    public static implicit operator BsonValue(bool value) => new(BsonType.Boolean, value ? 1 : 0);

    public static implicit operator BsonValue(int value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(short value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(sbyte value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(byte value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(ushort value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(char value) => new(BsonType.Int32, value);

    public static implicit operator BsonValue(long value) => new(BsonType.Int64, value);

    public static implicit operator BsonValue(uint value) => new(BsonType.Int64, value);

    public static implicit operator BsonValue(ulong value) => new(BsonType.UInt64, (long)value);

    /// <summary>Exactly: the decimal's coefficient, scale and sign as Decimal128 bits.</summary>
    public static implicit operator BsonValue(decimal value) => (BsonDecimal128)value;

    public static implicit operator BsonValue(ObjectId value)
    {
        Span<byte> bytes = stackalloc byte[ObjectId.Size];
        value.WriteTo(bytes);
        return FromInline(BsonType.ObjectId, bytes);
    }

    public static implicit operator BsonValue(Guid value)
    {
        Span<byte> bytes = stackalloc byte[16];
        value.TryWriteBytes(bytes, bigEndian: true, out _);
        return FromInline(BsonType.Binary, bytes, BsonBinarySubtype.Uuid);
    }

    public static implicit operator BsonValue(DateTime value) => new(BsonType.DateTime, (long)BsonTemporalEncoding.PackDateTime(value));

    public static implicit operator BsonValue(DateTimeOffset value) =>
        new(BsonType.DateTimeOffset, value.UtcTicks, value.Offset.Ticks / TimeSpan.TicksPerMinute);

    public static implicit operator BsonValue(TimeSpan value) => new(BsonType.TimeSpan, value.Ticks);

    public static implicit operator BsonValue(DateOnly value) => new(BsonType.DateOnly, value.DayNumber);

    public static implicit operator BsonValue(TimeOnly value) => new(BsonType.TimeOnly, value.Ticks);

    public static implicit operator BsonValue(byte[]? value) => value is null ? default : FromBinary(value);

    public static implicit operator BsonValue(BsonDocument? value) => value is null ? default : new(BsonType.Document, 0, 0, value);

    public static implicit operator BsonValue(BsonArray? value) => value is null ? default : new(BsonType.Array, 0, 0, value);

    /// <summary>An enum as its underlying integer, following the integer mapping.</summary>
    public static BsonValue FromEnum<TEnum>(TEnum value)
        where TEnum : struct, Enum
    {
        var underlying = Enum.GetUnderlyingType(typeof(TEnum));
        if (underlying == typeof(long))
        {
            return Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture);
        }

        if (underlying == typeof(ulong))
        {
            return Convert.ToUInt64(value, System.Globalization.CultureInfo.InvariantCulture);
        }

        if (underlying == typeof(uint))
        {
            return (long)Convert.ToUInt32(value, System.Globalization.CultureInfo.InvariantCulture);
        }

        return Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture);
    }
}
