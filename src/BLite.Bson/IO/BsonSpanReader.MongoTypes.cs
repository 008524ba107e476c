using System.Buffers.Binary;

namespace BLite.Bson;

// The standard BSON types that exist for MongoDB interop (docs/format.md, section 1.2): their
// C-BSON layouts are the standard ones with C-BSON strings and documents inside.
public ref partial struct BsonSpanReader
{
    /// <summary>The exact 16 bytes of a Decimal128, whatever value they hold (NaN, ±Infinity, any exponent).</summary>
    public BsonDecimal128 ReadDecimal128() => BsonDecimal128.ReadFrom(Take(BsonDecimal128.Size));

    /// <summary>Standard BSON UTC datetime: int64 milliseconds since the Unix epoch.</summary>
    public long ReadUtcDateTimeMilliseconds() => ReadInt64();

    public BsonTimestamp ReadTimestamp() => BsonTimestamp.FromValue(ReadUInt64());

    /// <summary>Two strings, pattern then options; neither may contain a NUL (standard BSON keeps them as C strings).</summary>
    public BsonRegex ReadRegex()
    {
        var start = _position;
        var pattern = ReadString();
        var options = ReadString();
        if (pattern.Contains('\0') || options.Contains('\0'))
        {
            throw new BsonFormatException("Regex pattern or options contain a NUL character", start);
        }

        return new BsonRegex(pattern, options);
    }

    public BsonDbPointer ReadDbPointer()
    {
        var ns = ReadString();
        return new BsonDbPointer(ns, ReadObjectId());
    }

    /// <summary>
    /// Reads the int32 total length and the code of a JavaScript-with-scope value; the scope
    /// document follows at the reader's position. Returns where the value must end, for
    /// <see cref="EndJavaScriptWithScope"/>.
    /// </summary>
    public int BeginJavaScriptWithScope(out string code)
    {
        var start = _position;
        var size = PeekCodeWithScopeLength(start, _end);
        _position += 4;
        code = ReadString();
        return start + size;
    }

    /// <summary>Checks that the scope document ended exactly where the value's length said.</summary>
    public readonly void EndJavaScriptWithScope(int expectedEnd)
    {
        if (_position != expectedEnd)
        {
            throw new BsonFormatException($"JavaScript with scope ends at offset {_position} but its length says {expectedEnd}", _position);
        }
    }

    /// <summary>int32 total length (itself, the code string and the scope document: at least 14), within the enclosing document.</summary>
    private readonly int PeekCodeWithScopeLength(int position, int end)
    {
        if (end - position < 4)
        {
            ThrowTruncated(position, 4, end);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(_data[position..]);
        if (length < 14 || length > end - position)
        {
            throw new BsonFormatException($"JavaScript with scope length {length} is invalid: it must be at least 14 and at most the {end - position} bytes available", position);
        }

        return length;
    }
}
