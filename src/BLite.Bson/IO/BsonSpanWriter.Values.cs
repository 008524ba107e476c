using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;

namespace BLite.Bson;

public ref partial struct BsonSpanWriter
{
    // Strict: a string holding a lone surrogate is refused instead of being silently altered.
    private static readonly UTF8Encoding _strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>8 bytes, IEEE 754 binary64.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteDouble(double v)
    {
        BinaryPrimitives.WriteDoubleLittleEndian(Reserve(8), v);
        _position += 8;
    }

    public void WriteString(string v)
    {
        ArgumentNullException.ThrowIfNull(v);
        WriteString(v.AsSpan());
    }

    /// <summary>int32 byte count including the terminator, UTF-8 bytes, 0x00.</summary>
    public void WriteString(scoped ReadOnlySpan<char> v)
    {
        int length;
        Span<byte> span;
        if (v.Length <= 1024)
        {
            // Short strings (nearly all field values) reserve the worst case (what
            // UTF8Encoding.GetMaxByteCount would say) and encode once. Most are ASCII, which the
            // vectorized narrowing handles with less set-up than the UTF-8 transcoder; any other
            // string is transcoded from its start again (measured: ~4% off serializing an order).
            span = Reserve(((v.Length + 1) * 3) + 5);
            if (Ascii.FromUtf16(v, span[4..], out length) != OperationStatus.Done
                && Utf8.FromUtf16(v, span[4..], out _, out length, replaceInvalidSequences: false) != OperationStatus.Done)
            {
                ThrowInvalidUtf16(v);
            }
        }
        else
        {
            // Long strings count first so the reservation does not triple their size.
            span = Reserve(checked(_strictUtf8.GetByteCount(v) + 5));
            length = _strictUtf8.GetBytes(v, span[4..]);
        }

        BinaryPrimitives.WriteInt32LittleEndian(span, length + 1);
        span[4 + length] = 0;
        _position += length + 5;
    }

    /// <summary>Throws the strict encoder's own exception (an ArgumentException naming the bad character).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidUtf16(scoped ReadOnlySpan<char> v)
    {
        _strictUtf8.GetByteCount(v);
        throw new ArgumentException("The string holds an unpaired surrogate and cannot be written as UTF-8.", nameof(v));
    }

    public void WriteStringUtf8(scoped ReadOnlySpan<byte> utf8)
    {
        if (!Utf8.IsValid(utf8))
        {
            throw new ArgumentException("The string bytes are not valid UTF-8.", nameof(utf8));
        }

        var span = Reserve(checked(utf8.Length + 5));
        BinaryPrimitives.WriteInt32LittleEndian(span, utf8.Length + 1);
        utf8.CopyTo(span[4..]);
        span[4 + utf8.Length] = 0;
        _position += utf8.Length + 5;
    }

    /// <summary>int32 byte count, subtype byte, bytes.</summary>
    public void WriteBinary(scoped ReadOnlySpan<byte> v, BsonBinarySubtype subtype)
    {
        var span = Reserve(checked(v.Length + 5));
        BinaryPrimitives.WriteInt32LittleEndian(span, v.Length);
        span[4] = (byte)subtype;
        v.CopyTo(span[5..]);
        _position += v.Length + 5;
    }

    /// <summary>A binary value of subtype Vector holding float32 components (layout: <see cref="BsonVector"/>).</summary>
    public void WriteFloat32Vector(scoped ReadOnlySpan<float> vector)
    {
        var payloadSize = BsonVector.Float32PayloadSize(vector.Length);
        var span = Reserve(checked(payloadSize + 5));
        BinaryPrimitives.WriteInt32LittleEndian(span, payloadSize);
        span[4] = (byte)BsonBinarySubtype.Vector;
        BsonVector.WriteFloat32(span.Slice(5, payloadSize), vector);
        _position += payloadSize + 5;
    }

    public void WriteObjectId(ObjectId v)
    {
        v.WriteTo(Reserve(ObjectId.Size));
        _position += ObjectId.Size;
    }

    public void WriteBoolean(bool v)
    {
        Reserve(1)[0] = v ? (byte)1 : (byte)0;
        _position++;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteInt32(int v)
    {
        BinaryPrimitives.WriteInt32LittleEndian(Reserve(4), v);
        _position += 4;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteInt64(long v)
    {
        BinaryPrimitives.WriteInt64LittleEndian(Reserve(8), v);
        _position += 8;
    }

    public void WriteUInt64(ulong v)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(Reserve(8), v);
        _position += 8;
    }

    /// <summary>16 bytes, Decimal128 holding exactly the decimal's coefficient, scale and sign.</summary>
    public void WriteDecimal(decimal v)
    {
        Decimal128Encoding.Write(v, Reserve(Decimal128Encoding.Size));
        _position += Decimal128Encoding.Size;
    }

    /// <summary>A binary value of subtype <see cref="BsonBinarySubtype.Uuid"/>: 16 bytes in RFC 4122 order.</summary>
    public void WriteGuid(Guid v)
    {
        var span = Reserve(21);
        BinaryPrimitives.WriteInt32LittleEndian(span, 16);
        span[4] = (byte)BsonBinarySubtype.Uuid;
        v.TryWriteBytes(span[5..], bigEndian: true, out _);
        _position += 21;
    }

    /// <summary>8 bytes: ticks in bits 0–61 and the Kind in bits 62–63.</summary>
    public void WriteDateTime(DateTime v)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(Reserve(8), BsonTemporalEncoding.PackDateTime(v));
        _position += 8;
    }

    /// <summary>10 bytes: UTC ticks (int64) then offset minutes (int16).</summary>
    public void WriteDateTimeOffset(DateTimeOffset v)
    {
        var span = Reserve(10);
        BinaryPrimitives.WriteInt64LittleEndian(span, v.UtcTicks);
        BinaryPrimitives.WriteInt16LittleEndian(span[8..], (short)(v.Offset.Ticks / TimeSpan.TicksPerMinute));
        _position += 10;
    }

    public void WriteTimeSpan(TimeSpan v) => WriteInt64(v.Ticks);

    public void WriteDateOnly(DateOnly v) => WriteInt32(v.DayNumber);

    public void WriteTimeOnly(TimeOnly v) => WriteInt64(v.Ticks);
}
