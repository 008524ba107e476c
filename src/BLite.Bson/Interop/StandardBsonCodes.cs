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
}
