namespace BLite.Bson;

/// <summary>
/// The type byte that starts every C-BSON element. Codes 0x01–0x13 are the standard BSON codes;
/// 0x20–0x25 are BLite extensions for .NET values that standard BSON cannot hold exactly
/// (layouts in docs/format.md, section 1).
/// </summary>
public enum BsonType : byte
{
    Double = 0x01,
    String = 0x02,
    Document = 0x03,
    Array = 0x04,
    Binary = 0x05,
    ObjectId = 0x07,
    Boolean = 0x08,
    Null = 0x0A,
    Int32 = 0x10,
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
}
