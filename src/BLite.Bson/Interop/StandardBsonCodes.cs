namespace BLite.Bson.Interop;

/// <summary>
/// Element type bytes of standard BSON (bsonspec.org, version 1.1) that the converter reads or
/// writes, plus the constants its temporal mapping needs. Codes that coincide with
/// <see cref="BsonType"/> are repeated here so the standard format reads on its own.
/// </summary>
internal static class StandardBsonCodes
{
    public const byte Double = 0x01;
    public const byte String = 0x02;
    public const byte Document = 0x03;
    public const byte Array = 0x04;
    public const byte Binary = 0x05;
    public const byte Undefined = 0x06;
    public const byte ObjectId = 0x07;
    public const byte Boolean = 0x08;
    public const byte UtcDateTime = 0x09;
    public const byte Null = 0x0A;
    public const byte Regex = 0x0B;
    public const byte DbPointer = 0x0C;
    public const byte JavaScript = 0x0D;
    public const byte Symbol = 0x0E;
    public const byte JavaScriptWithScope = 0x0F;
    public const byte Int32 = 0x10;
    public const byte Timestamp = 0x11;
    public const byte Int64 = 0x12;
    public const byte Decimal128 = 0x13;
    public const byte MinKey = 0xFF;
    public const byte MaxKey = 0x7F;

    /// <summary>Binary subtype 0x02 ("old binary") nests a second int32 length before the bytes.</summary>
    public const byte OldBinarySubtype = 0x02;

    public const long TicksPerMillisecond = TimeSpan.TicksPerMillisecond;
    public static readonly long UnixEpochTicks = DateTime.UnixEpoch.Ticks;

    /// <summary>The UTC datetimes (ms since the Unix epoch) a .NET <see cref="DateTime"/> can hold.</summary>
    public static readonly long MinDateTimeMilliseconds = -(UnixEpochTicks / TicksPerMillisecond);
    public static readonly long MaxDateTimeMilliseconds = (DateTime.MaxValue.Ticks - UnixEpochTicks) / TicksPerMillisecond;

    /// <summary>Names the standard types BLite has no value for, for error messages.</summary>
    public static string? DescribeUnsupported(byte type) => type switch
    {
        Undefined => "undefined (0x06, deprecated)",
        Regex => "regular expression (0x0B)",
        DbPointer => "DBPointer (0x0C, deprecated)",
        JavaScript => "JavaScript code (0x0D)",
        Symbol => "symbol (0x0E, deprecated)",
        JavaScriptWithScope => "JavaScript code with scope (0x0F)",
        Timestamp => "timestamp (0x11)",
        MinKey => "MinKey (0xFF)",
        MaxKey => "MaxKey (0x7F)",
        _ => null,
    };
}
