namespace BLite.Core.BTrees;

/// <summary>
/// The tag byte that starts every encoded key component. Tags order values of different types
/// (null first, then numbers, strings, binary, ids, booleans, times), so a field that holds
/// mixed types still has one deterministic order. The byte values are on disk: never renumber.
/// All numeric types share <see cref="Number"/>, so 5, 5L, (byte)5, 5.0 and 5m are the same key.
/// </summary>
internal enum KeyType : byte
{
    /// <summary>MongoDB's MinKey: no body; sorts before every other component.</summary>
    MinKey = 0x01,

    Null = 0x05,

    /// <summary>
    /// Every number (integers of every width, double, decimal, Decimal128) by exact value, so the
    /// numeric types interleave. Replaces the separate integer (0x10, 0x11), double (0x18) and
    /// decimal (0x1C) tags of catalog format 1, which are never written any more.
    /// </summary>
    Number = 0x14,

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
