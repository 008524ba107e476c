using System.Buffers.Binary;
using System.Security.Cryptography;

using BLite.Bson;

namespace BLite;

/// <summary>
/// A 12-byte MongoDB-compatible identifier: bytes 0–3 are the creation time in seconds since the
/// Unix epoch (big-endian), bytes 4–8 a per-process random value, bytes 9–11 a counter (big-endian).
/// Ordering compares the 12 bytes lexicographically, so ids sort by creation second first.
/// </summary>
public readonly struct ObjectId : IEquatable<ObjectId>, IComparable<ObjectId>, IComparable
{
    public const int Size = 12;

    private static readonly ulong _processRandom = CreateProcessRandom();
    private static int _counter = RandomNumberGenerator.GetInt32(0, 0x1000000);

    // Each field holds four of the 12 bytes read big-endian, so comparing the fields as unsigned
    // integers in order is the same as comparing the bytes lexicographically.
    private readonly uint _high;
    private readonly uint _middle;
    private readonly uint _low;

    public ObjectId(ReadOnlySpan<byte> bytes12)
    {
        if (bytes12.Length != Size)
        {
            throw new ArgumentException($"An ObjectId is exactly {Size} bytes; got {bytes12.Length}.", nameof(bytes12));
        }

        _high = BinaryPrimitives.ReadUInt32BigEndian(bytes12);
        _middle = BinaryPrimitives.ReadUInt32BigEndian(bytes12[4..]);
        _low = BinaryPrimitives.ReadUInt32BigEndian(bytes12[8..]);
    }

    private ObjectId(uint high, uint middle, uint low)
    {
        _high = high;
        _middle = middle;
        _low = low;
    }

    /// <summary>The all-zero id.</summary>
    public static ObjectId Empty => default;

    /// <summary>Seconds since the Unix epoch when the id was created.</summary>
    public uint Timestamp => _high;

    /// <summary>The creation time (whole seconds, UTC).</summary>
    public DateTime CreationTime => DateTime.UnixEpoch.AddSeconds(_high);

    public static ObjectId NewObjectId()
    {
        var timestamp = (uint)DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var counter = (uint)Interlocked.Increment(ref _counter) & 0xFFFFFF;
        return new ObjectId(timestamp, (uint)(_processRandom >> 8), ((uint)(_processRandom & 0xFF) << 24) | counter);
    }

    /// <summary>Builds an id from its parts (for tests and for ids derived from a time).</summary>
    public static ObjectId Create(uint timestamp, ulong random40, uint counter24)
    {
        if (random40 > 0xFF_FFFF_FFFF)
        {
            throw new ArgumentOutOfRangeException(nameof(random40), "The random part is 5 bytes.");
        }

        if (counter24 > 0xFF_FFFF)
        {
            throw new ArgumentOutOfRangeException(nameof(counter24), "The counter is 3 bytes.");
        }

        return new ObjectId(timestamp, (uint)(random40 >> 8), ((uint)(random40 & 0xFF) << 24) | counter24);
    }

    public static ObjectId Parse(string hex24)
    {
        ArgumentNullException.ThrowIfNull(hex24);
        if (!TryParse(hex24.AsSpan(), out var id))
        {
            throw new FormatException($"'{hex24}' is not an ObjectId: expected 24 hexadecimal digits.");
        }

        return id;
    }

    public static bool TryParse(string? s, out ObjectId id)
    {
        if (s is null)
        {
            id = default;
            return false;
        }

        return TryParse(s.AsSpan(), out id);
    }

    public static bool TryParse(ReadOnlySpan<char> s, out ObjectId id)
    {
        Span<byte> bytes = stackalloc byte[Size];
        if (s.Length != Size * 2
            || Convert.FromHexString(s, bytes, out _, out var written) != System.Buffers.OperationStatus.Done
            || written != Size)
        {
            id = default;
            return false;
        }

        id = new ObjectId(bytes);
        return true;
    }

    public void WriteTo(Span<byte> destination)
    {
        if (destination.Length < Size)
        {
            throw new ArgumentException($"The destination needs {Size} bytes; it has {destination.Length}.", nameof(destination));
        }

        BinaryPrimitives.WriteUInt32BigEndian(destination, _high);
        BinaryPrimitives.WriteUInt32BigEndian(destination[4..], _middle);
        BinaryPrimitives.WriteUInt32BigEndian(destination[8..], _low);
    }

    public byte[] ToByteArray()
    {
        var bytes = new byte[Size];
        WriteTo(bytes);
        return bytes;
    }

    /// <summary>24 lowercase hexadecimal digits.</summary>
    public override string ToString()
    {
        Span<byte> bytes = stackalloc byte[Size];
        WriteTo(bytes);
        return Convert.ToHexStringLower(bytes);
    }

    public bool Equals(ObjectId other) => _high == other._high && _middle == other._middle && _low == other._low;

    public override bool Equals(object? obj) => obj is ObjectId other && Equals(other);

    public override int GetHashCode() => HashCode.Combine(_high, _middle, _low);

    public int CompareTo(ObjectId other)
    {
        var result = _high.CompareTo(other._high);
        if (result != 0)
        {
            return result;
        }

        result = _middle.CompareTo(other._middle);
        return result != 0 ? result : _low.CompareTo(other._low);
    }

    public int CompareTo(object? obj) => obj switch
    {
        null => 1,
        ObjectId other => CompareTo(other),
        _ => throw new ArgumentException("The object is not an ObjectId.", nameof(obj)),
    };

    public static bool operator ==(ObjectId left, ObjectId right) => left.Equals(right);

    public static bool operator !=(ObjectId left, ObjectId right) => !left.Equals(right);

    public static bool operator <(ObjectId left, ObjectId right) => left.CompareTo(right) < 0;

    public static bool operator >(ObjectId left, ObjectId right) => left.CompareTo(right) > 0;

    public static bool operator <=(ObjectId left, ObjectId right) => left.CompareTo(right) <= 0;

    public static bool operator >=(ObjectId left, ObjectId right) => left.CompareTo(right) >= 0;

    private static ulong CreateProcessRandom()
    {
        Span<byte> bytes = stackalloc byte[8];
        RandomNumberGenerator.Fill(bytes);
        return BinaryPrimitives.ReadUInt64LittleEndian(bytes) & 0xFF_FFFF_FFFF;
    }
}
