namespace BLite.Bson;

/// <summary>The subtype byte of a BSON binary value (standard BSON codes; 0x80–0xFF are user-defined).</summary>
public enum BsonBinarySubtype : byte
{
    Generic = 0x00,
    Function = 0x01,
    OldBinary = 0x02,
    UuidLegacy = 0x03,

    /// <summary>A Guid, 16 bytes in RFC 4122 (big-endian) order.</summary>
    Uuid = 0x04,
    Md5 = 0x05,
    Encrypted = 0x06,
    Column = 0x07,
    Sensitive = 0x08,
    Vector = 0x09,
    UserDefined = 0x80,
}
