using System.Buffers.Binary;
using System.Text;
using BLite.Bson;

namespace BLite.Core.BTrees;

/// <summary>
/// Reads back the components <see cref="KeyWriter"/> wrote, one at a time. Keys are normalised
/// on write (decimal trailing zeros, -0.0, NaN payloads, DateTime.Kind), so a decoded value
/// equals the original but may not be bit-identical. Malformed bytes throw <see cref="FormatException"/>.
/// </summary>
internal ref struct KeyReader
{
    private readonly ReadOnlySpan<byte> _key;
    private int _position;

    public KeyReader(ReadOnlySpan<byte> key)
    {
        _key = key;
        _position = 0;
    }

    public readonly int Position => _position;

    public readonly bool End => _position >= _key.Length;

    public readonly KeyType PeekType()
    {
        if (End)
            ThrowFormat("no more components");
        return (KeyType)_key[_position];
    }

    /// <summary>The encoded bytes of the next component, tag included, without decoding it.</summary>
    public ReadOnlySpan<byte> ReadEncodedComponent()
    {
        var start = _position;
        var type = PeekType();
        _position++;
        switch (type)
        {
            case KeyType.Null or KeyType.MinKey or KeyType.MaxKey: break;
            case KeyType.Boolean: Take(1); break;
            case KeyType.DateOnly: Take(4); break;
            case KeyType.DateTimeOffset: Take(10); break;
            case KeyType.Guid: Take(16); break;
            case KeyType.ObjectId: Take(12); break;
            case KeyType.DateTime or KeyType.TimeOnly or KeyType.TimeSpan or KeyType.Timestamp: Take(8); break;
            case KeyType.String or KeyType.Binary: SkipEscaped(); break;
            case KeyType.Number: _position += KeyNumberDecoder.Measure(_key[_position..]); break;
            default: ThrowFormat($"unknown component tag 0x{(byte)type:X2}"); break;
        }
        return _key[start.._position];
    }

    public void ReadNull() => Expect(KeyType.Null);

    public bool ReadBoolean()
    {
        Expect(KeyType.Boolean);
        return Take(1)[0] switch
        {
            0 => false,
            1 => true,
            _ => throw new FormatException($"Malformed index key: boolean byte at offset {_position - 1} is neither 0 nor 1."),
        };
    }

    /// <summary>
    /// A Number component: the value, not the type it was written from (an integral value in the
    /// 64-bit range is an Int64 or UInt64, a value a double holds exactly a Double, else a Decimal128).
    /// </summary>
    public BsonValue ReadNumber()
    {
        Expect(KeyType.Number);
        var start = _position;
        _position += KeyNumberDecoder.Measure(_key[start..]);
        return KeyNumberDecoder.Decode(_key[start.._position]);
    }

    /// <summary>A Number component holding an integer within the range of <see cref="long"/>.</summary>
    public long ReadInt64()
    {
        var value = ReadNumber();
        return value.Type == BsonType.Int64 ? value.AsInt64 : throw new FormatException($"Malformed index key: {value} is not a 64-bit integer.");
    }

    public int ReadInt32() => checked((int)ReadInt64());

    public ulong ReadUInt64()
    {
        var value = ReadNumber();
        return value.Type switch
        {
            BsonType.UInt64 => value.AsUInt64,
            BsonType.Int64 => checked((ulong)value.AsInt64),
            _ => throw new FormatException($"Malformed index key: {value} is not an unsigned 64-bit integer."),
        };
    }

    /// <summary>A Number component a double holds exactly (every key written from a double, a float or an integer up to 2^53).</summary>
    public double ReadDouble()
    {
        var value = ReadNumber();
        return value.Type switch
        {
            BsonType.Double => value.AsDouble,
            BsonType.Int64 when (double)value.AsInt64 is var d && d < 9.2233720368547758E18 && (long)d == value.AsInt64 => d,
            BsonType.UInt64 when (double)value.AsUInt64 is var u && u < 1.8446744073709552E19 && (ulong)u == value.AsUInt64 => u,
            _ => throw new FormatException($"Malformed index key: {value} is not a double."),
        };
    }

    public decimal ReadDecimal() => ReadDecimal128().TryToDecimal(out var exact)
        ? exact
        : throw new FormatException("Malformed index key: the number is beyond System.Decimal.");

    /// <summary>
    /// A Number component as an exact Decimal128 (NaN and ±Infinity included; trailing zeros are
    /// not kept). A key written from a double that no Decimal128 holds exactly (0.1) throws.
    /// </summary>
    public BsonDecimal128 ReadDecimal128()
    {
        Expect(KeyType.Number);
        var start = _position;
        _position += KeyNumberDecoder.Measure(_key[start..]);
        return KeyNumberDecoder.DecodeDecimal128(_key[start.._position]);
    }

    public string ReadString()
    {
        Expect(KeyType.String);
        var raw = ReadEscapedBody(out var zeros);
        if (zeros == 0)
            return Encoding.UTF8.GetString(raw);
        return Encoding.UTF8.GetString(Unescape(raw, zeros));
    }

    public byte[] ReadBinary()
    {
        Expect(KeyType.Binary);
        var raw = ReadEscapedBody(out var zeros);
        return zeros == 0 ? raw.ToArray() : Unescape(raw, zeros);
    }

    public Guid ReadGuid()
    {
        Expect(KeyType.Guid);
        return new Guid(Take(16), bigEndian: true);
    }

    /// <summary>The 12 raw bytes of an ObjectId component.</summary>
    public ReadOnlySpan<byte> ReadObjectIdBytes()
    {
        Expect(KeyType.ObjectId);
        return Take(12);
    }

    public ObjectId ReadObjectId() => new(ReadObjectIdBytes());

    /// <summary>Kind is not stored in keys; the result has <see cref="DateTimeKind.Unspecified"/>.</summary>
    public DateTime ReadDateTime()
    {
        Expect(KeyType.DateTime);
        return new DateTime(ReadSigned64());
    }

    public DateTimeOffset ReadDateTimeOffset()
    {
        Expect(KeyType.DateTimeOffset);
        var utcTicks = ReadSigned64();
        var offsetMinutes = (short)(BinaryPrimitives.ReadUInt16BigEndian(Take(2)) ^ KeyWriter.SignBit16);
        var offset = TimeSpan.FromMinutes(offsetMinutes);
        return new DateTimeOffset(utcTicks + offset.Ticks, offset);
    }

    public TimeSpan ReadTimeSpan()
    {
        Expect(KeyType.TimeSpan);
        return new TimeSpan(ReadSigned64());
    }

    public DateOnly ReadDateOnly()
    {
        Expect(KeyType.DateOnly);
        return DateOnly.FromDayNumber((int)(BinaryPrimitives.ReadUInt32BigEndian(Take(4)) ^ KeyWriter.SignBit32));
    }

    public TimeOnly ReadTimeOnly()
    {
        Expect(KeyType.TimeOnly);
        return new TimeOnly(ReadSigned64());
    }

    private long ReadSigned64() => (long)(BinaryPrimitives.ReadUInt64BigEndian(Take(8)) ^ KeyWriter.SignBit64);

    private void Expect(KeyType type)
    {
        var actual = PeekType();
        if (actual != type)
            ThrowFormat($"expected a {type} component at offset {_position}, found tag 0x{(byte)actual:X2}");
        _position++;
    }

    private ReadOnlySpan<byte> Take(int length)
    {
        if (_key.Length - _position < length)
            ThrowFormat($"component at offset {_position} is truncated");
        var span = _key.Slice(_position, length);
        _position += length;
        return span;
    }

    private void SkipEscaped() => ReadEscapedBody(out _);

    private ReadOnlySpan<byte> ReadEscapedBody(out int zeros)
    {
        var start = _position;
        zeros = 0;
        while (true)
        {
            var rest = _key[_position..];
            var escape = rest.IndexOf(KeyWriter.EscapeByte);
            if (escape < 0 || escape + 1 >= rest.Length)
                ThrowFormat($"string or binary component at offset {start} has no terminator");
            _position += escape + 2;
            var marker = rest[escape + 1];
            if (marker == KeyWriter.Terminator)
                return _key[start..(_position - 2)];
            if (marker != KeyWriter.EscapedZero)
                ThrowFormat($"invalid escape 0x00 0x{marker:X2} at offset {_position - 2}");
            zeros++;
        }
    }

    private static byte[] Unescape(ReadOnlySpan<byte> raw, int zeros)
    {
        var result = new byte[raw.Length - zeros];
        var write = 0;
        for (var read = 0; read < raw.Length; read++)
        {
            result[write++] = raw[read];
            if (raw[read] == KeyWriter.EscapeByte)
                read++;
        }
        return result;
    }

    private static void ThrowFormat(string message) => throw new FormatException("Malformed index key: " + message + ".");
}
