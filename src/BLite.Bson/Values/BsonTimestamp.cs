namespace BLite.Bson;

/// <summary>
/// A BSON timestamp (type 0x11), MongoDB's internal replication clock: seconds since the Unix
/// epoch in the high 32 bits and an increment in the low 32 bits of one unsigned 64-bit value.
/// Ordered by that value.
/// </summary>
public readonly record struct BsonTimestamp(uint Seconds, uint Increment) : IComparable<BsonTimestamp>
{
    /// <summary>The stored 64 bits: seconds &lt;&lt; 32 | increment.</summary>
    public ulong Value => ((ulong)Seconds << 32) | Increment;

    public static BsonTimestamp FromValue(ulong value) => new((uint)(value >> 32), (uint)value);

    public int CompareTo(BsonTimestamp other) => Value.CompareTo(other.Value);
}
