using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Unicode;

namespace BLite.Bson;

public ref partial struct BsonSpanReader
{
    private static readonly UTF8Encoding _strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public double ReadDouble() => BinaryPrimitives.ReadDoubleLittleEndian(Take(8));

    public string ReadString()
    {
        var start = _position;
        var utf8 = TakeStringBytes();
        if (utf8.IsEmpty)
        {
            return string.Empty;
        }

        return _strings is { } strings && utf8.Length <= BsonStringTable.MaxBytes
            ? strings.GetOrDecode(utf8, start)
            : DecodeUtf8(utf8, start, out _);
    }

    /// <summary>The string's UTF-8 bytes without the terminator, validated, not copied.</summary>
    public ReadOnlySpan<byte> ReadStringUtf8()
    {
        var start = _position;
        var utf8 = TakeStringBytes();
        if (!Utf8.IsValid(utf8))
        {
            throw new BsonFormatException("String is not valid UTF-8", start);
        }

        return utf8;
    }

    public ReadOnlySpan<byte> ReadBinary(out BsonBinarySubtype subtype)
    {
        var start = _position;
        var length = BinaryPrimitives.ReadInt32LittleEndian(Take(4));
        if (length < 0 || length > _end - _position - 1)
        {
            throw new BsonFormatException($"Binary length {length} is invalid for the {_end - _position - 1} bytes available", start);
        }

        subtype = (BsonBinarySubtype)_data[_position];
        _position++;
        return Take(length);
    }

    public ObjectId ReadObjectId() => new(Take(ObjectId.Size));

    public bool ReadBoolean()
    {
        var start = _position;
        var value = Take(1)[0];
        if (value > 1)
        {
            throw new BsonFormatException($"Boolean byte is 0x{value:X2}; only 0x00 and 0x01 are valid", start);
        }

        return value == 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int ReadInt32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long ReadInt64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));

    public ulong ReadUInt64() => BinaryPrimitives.ReadUInt64LittleEndian(Take(8));

    public decimal ReadDecimal()
    {
        var start = _position;
        return Decimal128Encoding.Read(Take(Decimal128Encoding.Size), start);
    }

    /// <summary>Reads a binary value that must be subtype <see cref="BsonBinarySubtype.Uuid"/> with 16 bytes.</summary>
    public Guid ReadGuid()
    {
        var start = _position;
        var bytes = ReadBinary(out var subtype);
        if (subtype != BsonBinarySubtype.Uuid || bytes.Length != 16)
        {
            throw new BsonFormatException($"A Guid must be 16 bytes of binary subtype 0x04; found {bytes.Length} bytes of subtype 0x{(byte)subtype:X2}", start);
        }

        return new Guid(bytes, bigEndian: true);
    }

    public DateTime ReadDateTime()
    {
        var start = _position;
        return BsonTemporalEncoding.UnpackDateTime(BinaryPrimitives.ReadUInt64LittleEndian(Take(8)), start);
    }

    public DateTimeOffset ReadDateTimeOffset()
    {
        var start = _position;
        var bytes = Take(10);
        return BsonTemporalEncoding.MakeDateTimeOffset(
            BinaryPrimitives.ReadInt64LittleEndian(bytes), BinaryPrimitives.ReadInt16LittleEndian(bytes[8..]), start);
    }

    public TimeSpan ReadTimeSpan() => new(ReadInt64());

    public DateOnly ReadDateOnly()
    {
        var start = _position;
        return BsonTemporalEncoding.MakeDateOnly(ReadInt32(), start);
    }

    public TimeOnly ReadTimeOnly()
    {
        var start = _position;
        return BsonTemporalEncoding.MakeTimeOnly(ReadInt64(), start);
    }

    /// <summary>Skips one value of <paramref name="type"/> (a nested document or array as a whole).</summary>
    public void SkipValue(BsonType type) => Take(GetValueSize(type));

    /// <summary>
    /// The bytes of one value (for a document or array: its length prefix through its terminator),
    /// to copy or compare without decoding. Nested contents are not validated.
    /// </summary>
    public ReadOnlySpan<byte> ReadRawValue(BsonType type) => Take(GetValueSize(type));

    private readonly int GetValueSize(BsonType type) => ValueSizeAt(type, _position, _end);

    /// <summary>The size of the value of <paramref name="type"/> at <paramref name="position"/>, checked against <paramref name="end"/>.</summary>
    private readonly int ValueSizeAt(BsonType type, int position, int end)
    {
        switch (type)
        {
            case BsonType.Null:
            case BsonType.Undefined:
            case BsonType.MinKey:
            case BsonType.MaxKey:
                return 0;
            case BsonType.Boolean:
                return 1;
            case BsonType.Int32:
            case BsonType.DateOnly:
                return 4;
            case BsonType.Double:
            case BsonType.Int64:
            case BsonType.UInt64:
            case BsonType.DateTime:
            case BsonType.TimeSpan:
            case BsonType.TimeOnly:
            case BsonType.UtcDateTime:
            case BsonType.Timestamp:
                return 8;
            case BsonType.DateTimeOffset:
                return 10;
            case BsonType.ObjectId:
                return ObjectId.Size;
            case BsonType.Decimal128:
                return Decimal128Encoding.Size;
            case BsonType.String:
            case BsonType.JavaScript:
            case BsonType.Symbol:
                return PeekStringSize(position, end);
            case BsonType.Regex:
                var patternSize = PeekStringSize(position, end);
                return patternSize + PeekStringSize(position + patternSize, end);
            case BsonType.DbPointer:
                return checked(PeekStringSize(position, end) + ObjectId.Size);
            case BsonType.JavaScriptWithScope:
                return PeekCodeWithScopeLength(position, end);
            case BsonType.Binary:
                return checked(5 + PeekLength(position, end, 0, "Binary"));
            case BsonType.Document:
            case BsonType.Array:
                return PeekContainerLength(position, end);
            default:
                throw new BsonFormatException($"Unknown C-BSON type code 0x{(byte)type:X2}", position);
        }
    }

    private readonly int PeekLength(int position, int end, int minimum, string what)
    {
        if (end - position < 4)
        {
            ThrowTruncated(position, 4, end);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(_data[position..]);
        var extra = minimum == 1 ? 4 : 5;
        if (length < minimum || length > end - position - extra)
        {
            throw new BsonFormatException($"{what} length {length} is invalid for the {end - position - extra} bytes available", position);
        }

        return length;
    }

    private readonly int PeekStringSize(int position, int end)
    {
        var size = 4 + PeekLength(position, end, 1, "String");
        if (_data[position + size - 1] != 0)
        {
            throw new BsonFormatException("String does not end with 0x00", position + size - 1);
        }

        return size;
    }

    private readonly int PeekContainerLength(int position, int end)
    {
        if (end - position < 4)
        {
            ThrowTruncated(position, 4, end);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(_data[position..]);
        if (length < 5 || length > end - position)
        {
            throw new BsonFormatException($"Nested length {length} is invalid for the {end - position} bytes available", position);
        }

        if (_data[position + length - 1] != 0)
        {
            throw new BsonFormatException("Nested document or array does not end with 0x00", position + length - 1);
        }

        return length;
    }

    /// <summary>
    /// One length check covers the prefix, the bytes and the terminator (a string is the most
    /// common value, so this runs once per text field).
    /// </summary>
    private ReadOnlySpan<byte> TakeStringBytes()
    {
        var start = _position;
        var available = _end - start;
        if (available < 4)
        {
            ThrowTruncated(start, 4);
        }

        // Every offset below is checked against _end, which never passes _data.Length, so the
        // reads go through a reference without a second bounds check each.
        ref var at = ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), start);
        var length = BinaryPrimitives.ReadInt32LittleEndian(MemoryMarshal.CreateReadOnlySpan(ref at, 4));
        if (length < 1 || length > available - 4)
        {
            ThrowInvalidStringLength(length, available - 4, start);
        }

        if (Unsafe.Add(ref at, 4 + length - 1) != 0)
        {
            ThrowUnterminatedString(start + 4 + length - 1);
        }

        _position = start + 4 + length;
        return MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref at, 4), length - 1);
    }

    internal static string DecodeUtf8(ReadOnlySpan<byte> utf8, int offset, out bool ascii)
    {
        // Most stored text (codes, names, emails, tags) is ASCII: checking that is one vectorized
        // pass, and ASCII bytes are their own Latin-1 chars, so widening needs no decoder. Other
        // text goes through the strict decoder, which refuses invalid UTF-8.
        ascii = Ascii.IsValid(utf8);
        if (ascii)
        {
            return Encoding.Latin1.GetString(utf8);
        }

        try
        {
            return _strictUtf8.GetString(utf8);
        }
        catch (DecoderFallbackException ex)
        {
            throw new BsonFormatException("String is not valid UTF-8", offset, ex);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidStringLength(int length, int available, int offset) =>
        throw new BsonFormatException($"String length {length} is invalid for the {available} bytes available", offset);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowUnterminatedString(int offset) =>
        throw new BsonFormatException("String does not end with 0x00", offset);
}
