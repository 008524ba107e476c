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
            case KeyType.Integer or KeyType.LargeInteger or KeyType.Double or KeyType.DateTime
                or KeyType.TimeOnly or KeyType.TimeSpan or KeyType.Timestamp: Take(8); break;
            case KeyType.String or KeyType.Binary: SkipEscaped(); break;
            case KeyType.Decimal: SkipDecimalBody(); break;
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

    /// <summary>Any integer component within the range of <see cref="long"/>.</summary>
    public long ReadInt64()
    {
        Expect(KeyType.Integer);
        return (long)(BinaryPrimitives.ReadUInt64BigEndian(Take(8)) ^ KeyWriter.SignBit64);
    }

    public int ReadInt32() => checked((int)ReadInt64());

    public ulong ReadUInt64()
    {
        if (PeekType() == KeyType.LargeInteger)
        {
            _position++;
            return BinaryPrimitives.ReadUInt64BigEndian(Take(8));
        }
        return checked((ulong)ReadInt64());
    }

    public double ReadDouble()
    {
        Expect(KeyType.Double);
        var ordered = BinaryPrimitives.ReadUInt64BigEndian(Take(8));
        if (ordered == 0)
            return double.NaN;
        var bits = (ordered & KeyWriter.SignBit64) != 0 ? ordered ^ KeyWriter.SignBit64 : ~ordered;
        return BitConverter.Int64BitsToDouble((long)bits);
    }

    public decimal ReadDecimal()
    {
        Expect(KeyType.Decimal);
        var start = _position;
        SkipDecimalBody();
        return KeyDecimalDecoder.Decode(_key[start.._position]);
    }

    /// <summary>A decimal component as a Decimal128 (every decimal key, NaN and ±Infinity included; trailing zeros are not kept).</summary>
    public BsonDecimal128 ReadDecimal128()
    {
        Expect(KeyType.Decimal);
        var start = _position;
        SkipDecimalBody();
        return KeyDecimalDecoder.Decode128(_key[start.._position]);
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

    private void SkipDecimalBody()
    {
        var sign = Take(1)[0];
        if (sign == KeyWriter.DecimalZero)
            return;
        if (sign != KeyWriter.DecimalNegative && sign != KeyWriter.DecimalPositive)
            ThrowFormat($"invalid decimal sign class 0x{sign:X2} at offset {_position - 1}");
        var invert = sign == KeyWriter.DecimalNegative ? (byte)0xFF : (byte)0x00;
        var exponent = (byte)(Take(1)[0] ^ invert);
        if (exponent is KeyWriter.WideDecimalBelow or KeyWriter.WideDecimalAbove)
        {
            var wide = Take(2);
            if ((ushort)(((wide[0] ^ invert) << 8) | (wide[1] ^ invert)) >= KeyWriter.DecimalInfinity)
                return;
        }
        // At most 34 digits and the terminator: 18 bytes.
        for (var guard = 0; guard < 18; guard++)
        {
            var b = (byte)(Take(1)[0] ^ invert);
            if ((b & 0xF0) == 0 || (b & 0x0F) == 0)
                return;
        }
        ThrowFormat("decimal component has more than 34 digits");
    }

    private static void ThrowFormat(string message) => throw new FormatException("Malformed index key: " + message + ".");
}
