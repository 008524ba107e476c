using System.Buffers.Binary;
using System.Runtime.CompilerServices;

using BLite.Bson;

namespace BLite;

/// <summary>
/// One schemaless value of any <see cref="BsonType"/>. A small struct: scalars (including Guid,
/// decimal and DateTimeOffset) live inline and never allocate; strings, byte arrays, documents
/// and arrays are held by reference. <c>default(BsonValue)</c> is Null.
/// </summary>
public readonly partial struct BsonValue
{
    // Payload layout by type: Double = bits; Int32/Int64/UInt64/TimeSpan/TimeOnly/DateOnly =
    // _bits; DateTime = packed ticks+kind; DateTimeOffset = UTC ticks + offset minutes in _bits2;
    // Decimal128 = IEEE bits (low word, high word); Boolean = 0/1; ObjectId = 12 bytes
    // over _bits/_bits2; Binary = _reference byte[], or (Uuid only) 16 inline bytes with a null
    // reference so Guids read from storage cost no allocation.
    private readonly object? _reference;
    private readonly long _bits;
    private readonly long _bits2;
    private readonly BsonType _type;
    private readonly BsonBinarySubtype _subtype;

    private BsonValue(BsonType type, long bits, long bits2 = 0, object? reference = null, BsonBinarySubtype subtype = default)
    {
        _type = type;
        _bits = bits;
        _bits2 = bits2;
        _reference = reference;
        _subtype = subtype;
    }

    public static BsonValue Null => default;

    public BsonType Type => _type == 0 ? BsonType.Null : _type;

    public bool IsNull => _type is 0 or BsonType.Null;

    public bool IsNumeric => _type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64 or BsonType.Double or BsonType.Decimal128;

    public bool IsString => _type == BsonType.String;

    public bool IsDocument => _type == BsonType.Document;

    public bool IsArray => _type == BsonType.Array;

    /// <summary>The subtype of a Binary value.</summary>
    public BsonBinarySubtype BinarySubtype => _type == BsonType.Binary ? _subtype : throw WrongType(BsonType.Binary);

    public double AsDouble => _type == BsonType.Double ? BitConverter.Int64BitsToDouble(_bits) : throw WrongType(BsonType.Double);

    public string AsString => _type == BsonType.String ? (string)_reference! : throw WrongType(BsonType.String);

    public BsonDocument AsDocument => _type == BsonType.Document ? (BsonDocument)_reference! : throw WrongType(BsonType.Document);

    public BsonArray AsArray => _type == BsonType.Array ? (BsonArray)_reference! : throw WrongType(BsonType.Array);

    /// <summary>The bytes of a Binary value (the stored array itself; do not mutate it).</summary>
    public byte[] AsBinary => _type != BsonType.Binary ? throw WrongType(BsonType.Binary)
        : _reference is byte[] bytes ? bytes
        : InlineBytes();

    public ObjectId AsObjectId => _type == BsonType.ObjectId ? InlineObjectId() : throw WrongType(BsonType.ObjectId);

    /// <summary>The ObjectId held inline (by ObjectId and DBPointer values).</summary>
    private ObjectId InlineObjectId()
    {
        Span<byte> bytes = stackalloc byte[16];
        WriteInline(bytes);
        return new ObjectId(bytes[..ObjectId.Size]);
    }

    public bool AsBoolean => _type == BsonType.Boolean ? _bits != 0 : throw WrongType(BsonType.Boolean);

    public int AsInt32 => _type == BsonType.Int32 ? (int)_bits : throw WrongType(BsonType.Int32);

    public long AsInt64 => _type == BsonType.Int64 ? _bits : throw WrongType(BsonType.Int64);

    public ulong AsUInt64 => _type == BsonType.UInt64 ? (ulong)_bits : throw WrongType(BsonType.UInt64);

    /// <summary>
    /// A Decimal128 as a .NET decimal; throws <see cref="OverflowException"/> when no decimal
    /// equals it exactly (NaN, ±Infinity, beyond the decimal range or its 28 places): use
    /// <see cref="AsDecimal128"/> for the exact value.
    /// </summary>
    public decimal AsDecimal => (decimal)AsDecimal128;

    /// <summary>A Binary value of subtype Uuid holding 16 bytes, as a Guid.</summary>
    public Guid AsGuid
    {
        get
        {
            if (_type != BsonType.Binary || _subtype != BsonBinarySubtype.Uuid)
            {
                throw new InvalidCastException($"The value is {Describe()}, not a Binary of subtype Uuid.");
            }

            if (_reference is byte[] bytes)
            {
                return bytes.Length == 16
                    ? new Guid(bytes, bigEndian: true)
                    : throw new InvalidCastException($"A Uuid binary must hold 16 bytes; this one holds {bytes.Length}.");
            }

            Span<byte> inline = stackalloc byte[16];
            WriteInline(inline);
            return new Guid(inline, bigEndian: true);
        }
    }

    public DateTime AsDateTime => _type == BsonType.DateTime
        ? BsonTemporalEncoding.UnpackDateTime((ulong)_bits, -1)
        : throw WrongType(BsonType.DateTime);

    public DateTimeOffset AsDateTimeOffset => _type == BsonType.DateTimeOffset
        ? new DateTimeOffset(_bits + (_bits2 * TimeSpan.TicksPerMinute), TimeSpan.FromMinutes(_bits2))
        : throw WrongType(BsonType.DateTimeOffset);

    public TimeSpan AsTimeSpan => _type == BsonType.TimeSpan ? new TimeSpan(_bits) : throw WrongType(BsonType.TimeSpan);

    public DateOnly AsDateOnly => _type == BsonType.DateOnly ? DateOnly.FromDayNumber((int)_bits) : throw WrongType(BsonType.DateOnly);

    public TimeOnly AsTimeOnly => _type == BsonType.TimeOnly ? new TimeOnly(_bits) : throw WrongType(BsonType.TimeOnly);

    /// <summary>Any numeric value as a double (may round Int64, UInt64 and Decimal128).</summary>
    public double ToDouble() => _type switch
    {
        BsonType.Double => BitConverter.Int64BitsToDouble(_bits),
        BsonType.Int32 or BsonType.Int64 => _bits,
        BsonType.UInt64 => (ulong)_bits,
        BsonType.Decimal128 => AsDecimal128.ToDouble(),
        _ => throw new InvalidCastException($"The value is {Describe()}, not a number."),
    };

    /// <summary>An integral value (Int32, Int64, or UInt64 that fits) as an Int64.</summary>
    public long ToInt64() => _type switch
    {
        BsonType.Int32 or BsonType.Int64 => _bits,
        BsonType.UInt64 when _bits >= 0 => _bits,
        _ => throw new InvalidCastException($"The value is {Describe()}, not an integer that fits an Int64."),
    };

    /// <summary>Any numeric value as a decimal; throws <see cref="OverflowException"/> for doubles out of range and Decimal128 values no decimal holds exactly.</summary>
    public decimal ToDecimal() => _type switch
    {
        BsonType.Decimal128 => AsDecimal,
        BsonType.Int32 or BsonType.Int64 => _bits,
        BsonType.UInt64 => (ulong)_bits,
        BsonType.Double => (decimal)BitConverter.Int64BitsToDouble(_bits),
        _ => throw new InvalidCastException($"The value is {Describe()}, not a number."),
    };

    public static BsonValue FromBinary(byte[] bytes, BsonBinarySubtype subtype = BsonBinarySubtype.Generic)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        return new BsonValue(BsonType.Binary, 0, 0, bytes, subtype);
    }

    public static BsonValue FromBinary(ReadOnlySpan<byte> bytes, BsonBinarySubtype subtype = BsonBinarySubtype.Generic) =>
        subtype == BsonBinarySubtype.Uuid && bytes.Length == 16
            ? FromInline(BsonType.Binary, bytes, subtype)
            : new BsonValue(BsonType.Binary, 0, 0, bytes.ToArray(), subtype);

    /// <summary>Relaxed Extended JSON text of the value.</summary>
    public override string ToString() => BsonJsonWriter.Write(this, BsonJsonMode.Relaxed);

    private static BsonValue FromInline(BsonType type, ReadOnlySpan<byte> bytes, BsonBinarySubtype subtype = default)
    {
        Span<byte> padded = stackalloc byte[16];
        padded.Clear();
        bytes.CopyTo(padded);
        return new BsonValue(type, BinaryPrimitives.ReadInt64LittleEndian(padded), BinaryPrimitives.ReadInt64LittleEndian(padded[8..]), null, subtype);
    }

    private void WriteInline(Span<byte> destination16)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination16, _bits);
        BinaryPrimitives.WriteInt64LittleEndian(destination16[8..], _bits2);
    }

    private byte[] InlineBytes()
    {
        var bytes = new byte[16];
        WriteInline(bytes);
        return bytes;
    }

    private string Describe() => IsNull ? "Null" : Type.ToString();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private InvalidCastException WrongType(BsonType expected) => new($"The value is {Describe()}, not {expected}.");
}
