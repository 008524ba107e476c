using System.Buffers.Binary;
using BLite.Bson;

namespace BLite.Core.BTrees;

/// <summary>
/// Writes order-preserving key components into a caller-supplied buffer: comparing two encoded
/// keys with a plain byte comparison (memcmp) gives the same order as comparing the values.
/// Every component starts with a <see cref="KeyType"/> tag and is self-delimiting, so a key may
/// hold several components (a composite) and any complete leading components form a prefix for
/// range scans. The byte layout of each component is documented in docs/format.md section 4.
/// Size the destination to <see cref="BTree.MaxKeySize(int)"/>: writing past its end throws
/// <see cref="BLiteKeyTooLargeException"/>.
/// </summary>
internal ref partial struct KeyWriter
{
    internal const ulong SignBit64 = 0x8000_0000_0000_0000UL;
    internal const uint SignBit32 = 0x8000_0000U;
    internal const ushort SignBit16 = 0x8000;

    private readonly Span<byte> _destination;
    private int _position;

    public KeyWriter(Span<byte> destination)
    {
        _destination = destination;
        _position = 0;
    }

    public readonly int BytesWritten => _position;

    public readonly ReadOnlySpan<byte> WrittenSpan => _destination[.._position];

    /// <summary>Null sorts before every other value.</summary>
    public void WriteNull() => Reserve(1)[0] = (byte)KeyType.Null;

    public void WriteBoolean(bool value)
    {
        var span = Reserve(2);
        span[0] = (byte)KeyType.Boolean;
        span[1] = value ? (byte)1 : (byte)0;
    }

    /// <summary>As 16 bytes in big-endian field order (the order of its "N" string form).</summary>
    public void WriteGuid(Guid value)
    {
        var span = Reserve(17);
        span[0] = (byte)KeyType.Guid;
        value.TryWriteBytes(span[1..], bigEndian: true, out _);
    }

    /// <summary>The 12 raw bytes of an ObjectId (timestamp first, so ids order by creation time).</summary>
    public void WriteObjectId(ReadOnlySpan<byte> objectIdBytes)
    {
        if (objectIdBytes.Length != 12)
            ThrowObjectIdLength(objectIdBytes.Length);
        var span = Reserve(13);
        span[0] = (byte)KeyType.ObjectId;
        objectIdBytes.CopyTo(span[1..]);
    }

    /// <summary>The 12 bytes of the ObjectId; orders like <see cref="ObjectId.CompareTo(ObjectId)"/>.</summary>
    public void WriteObjectId(ObjectId value)
    {
        var span = Reserve(13);
        span[0] = (byte)KeyType.ObjectId;
        value.WriteTo(span[1..]);
    }

    /// <summary>By ticks only: like <see cref="DateTime.CompareTo(DateTime)"/>, Kind is ignored and no time zone conversion happens.</summary>
    public void WriteDateTime(DateTime value) => WriteTagged64(KeyType.DateTime, (ulong)value.Ticks ^ SignBit64);

    /// <summary>By UTC instant, then by offset, so two values at the same instant with different offsets stay distinct.</summary>
    public void WriteDateTimeOffset(DateTimeOffset value)
    {
        var span = Reserve(11);
        span[0] = (byte)KeyType.DateTimeOffset;
        BinaryPrimitives.WriteUInt64BigEndian(span[1..], (ulong)value.UtcTicks ^ SignBit64);
        BinaryPrimitives.WriteUInt16BigEndian(span[9..], (ushort)((ushort)(short)value.TotalOffsetMinutes ^ SignBit16));
    }

    public void WriteTimeSpan(TimeSpan value) => WriteTagged64(KeyType.TimeSpan, (ulong)value.Ticks ^ SignBit64);

    public void WriteDateOnly(DateOnly value)
    {
        var span = Reserve(5);
        span[0] = (byte)KeyType.DateOnly;
        BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)value.DayNumber ^ SignBit32);
    }

    public void WriteTimeOnly(TimeOnly value) => WriteTagged64(KeyType.TimeOnly, (ulong)value.Ticks ^ SignBit64);

    /// <summary>Appends already encoded components (for example a primary key after a field key).</summary>
    public void WriteEncoded(ReadOnlySpan<byte> encodedComponents) => encodedComponents.CopyTo(Reserve(encodedComponents.Length));

    private void WriteTagged64(KeyType tag, ulong orderedBits)
    {
        var span = Reserve(9);
        span[0] = (byte)tag;
        BinaryPrimitives.WriteUInt64BigEndian(span[1..], orderedBits);
    }

    private Span<byte> Reserve(int length)
    {
        if (_destination.Length - _position < length)
            ThrowTooLarge(_position + length);
        var span = _destination.Slice(_position, length);
        _position += length;
        return span;
    }

    private readonly void ThrowTooLarge(int sizeAtLeast) =>
        throw BLiteKeyTooLargeException.AtLeast(sizeAtLeast, _destination.Length);

    private static void ThrowObjectIdLength(int length) =>
        throw new ArgumentException($"An ObjectId is 12 bytes, not {length}.", "objectIdBytes");
}
