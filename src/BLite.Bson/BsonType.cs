namespace BLite.Bson;

/// <summary>
/// The type byte that starts every C-BSON element. Codes 0x01–0x13, 0x7F and 0xFF are the
/// standard BSON codes (with their standard value layouts, except that strings inside are
/// C-BSON strings); 0x20–0x25 are BLite extensions for .NET values that standard BSON cannot hold
/// exactly (layouts in docs/format.md, section 1).
/// </summary>
public enum BsonType : byte
{
    Double = 0x01,
    String = 0x02,
    Document = 0x03,
    Array = 0x04,
    Binary = 0x05,

    /// <summary>Deprecated BSON undefined: no value bytes.</summary>
    Undefined = 0x06,

    ObjectId = 0x07,
    Boolean = 0x08,

    /// <summary>
    /// Standard BSON's UTC datetime, 8 bytes: int64 milliseconds since the Unix epoch. Used only
    /// for instants a .NET <see cref="System.DateTime"/> cannot hold (outside years 1–9999); every
    /// other datetime is a <see cref="DateTime"/>.
    /// </summary>
    UtcDateTime = 0x09,

    Null = 0x0A,

    /// <summary>Two strings: the pattern, then the options (<see cref="BsonRegex"/>).</summary>
    Regex = 0x0B,

    /// <summary>Deprecated: a string (namespace), then a 12-byte ObjectId (<see cref="BsonDbPointer"/>).</summary>
    DbPointer = 0x0C,

    /// <summary>A string of code (<see cref="BsonJavaScript"/>).</summary>
    JavaScript = 0x0D,

    /// <summary>Deprecated: a string (<see cref="BsonSymbol"/>).</summary>
    Symbol = 0x0E,

    /// <summary>Deprecated: int32 total length, a string of code, a document (<see cref="BsonJavaScriptWithScope"/>).</summary>
    JavaScriptWithScope = 0x0F,

    Int32 = 0x10,

    /// <summary>8 bytes: uint64, increment in the low 32 bits, seconds in the high 32 (<see cref="BsonTimestamp"/>).</summary>
    Timestamp = 0x11,

    Int64 = 0x12,
    Decimal128 = 0x13,

    /// <summary>8 bytes: ticks in bits 0–61, <see cref="DateTimeKind"/> in bits 62–63.</summary>
    DateTime = 0x20,

    /// <summary>10 bytes: UTC ticks (int64), then the offset in minutes (int16).</summary>
    DateTimeOffset = 0x21,

    /// <summary>8 bytes: ticks (int64, may be negative).</summary>
    TimeSpan = 0x22,

    /// <summary>4 bytes: day number since 0001-01-01 (int32).</summary>
    DateOnly = 0x23,

    /// <summary>8 bytes: ticks since midnight (int64).</summary>
    TimeOnly = 0x24,

    /// <summary>8 bytes: unsigned 64-bit integer.</summary>
    UInt64 = 0x25,

    /// <summary>Sorts after every other value; no value bytes.</summary>
    MaxKey = 0x7F,

    /// <summary>Sorts before every other value; no value bytes.</summary>
    MinKey = 0xFF,
}
