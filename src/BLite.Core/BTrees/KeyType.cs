namespace BLite.Core.BTrees;

/// <summary>
/// The tag byte that starts every encoded key component. Tags order values of different types
/// (null first, then numbers, strings, binary, ids, booleans, times), so a field that holds
/// mixed types still has one deterministic order. The byte values are on disk: never renumber.
/// All integer .NET types share <see cref="Integer"/>/<see cref="LargeInteger"/>, so 5, 5L and
/// (byte)5 are the same key; double and decimal are separate number classes that do not
/// interleave with each other or with integers.
/// </summary>
internal enum KeyType : byte
{
    /// <summary>MongoDB's MinKey: no body; sorts before every other component.</summary>
    MinKey = 0x01,

    Null = 0x05,

    /// <summary>Any integer in the range of <see cref="long"/>: 8 bytes, big-endian, sign bit flipped.</summary>
    Integer = 0x10,

    /// <summary>A <see cref="ulong"/> above <see cref="long.MaxValue"/>: 8 bytes big-endian; sorts after every <see cref="Integer"/>.</summary>
    LargeInteger = 0x11,

    Double = 0x18,
    Decimal = 0x1C,
    String = 0x20,
    Binary = 0x28,
    Guid = 0x30,
    ObjectId = 0x38,
    Boolean = 0x40,
    DateTime = 0x48,
    DateTimeOffset = 0x49,
    DateOnly = 0x4A,
    TimeOnly = 0x4B,
    TimeSpan = 0x4C,

    /// <summary>A BSON timestamp: 8 bytes big-endian (seconds, then increment).</summary>
    Timestamp = 0x50,

    /// <summary>MongoDB's MaxKey: no body; sorts after every other component.</summary>
    MaxKey = 0xF0,
}
