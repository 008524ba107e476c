using System.Buffers.Binary;

using BLite.Bson;

namespace BLite;

// The BSON types that exist for MongoDB interop: Decimal128 as exact bits, regex, timestamp,
// code, symbol, DBPointer, undefined, MinKey, MaxKey, and UTC datetimes beyond .NET's range.
// Payloads: Decimal128 low/high words in _bits/_bits2; Timestamp and UtcDateTime in _bits;
// Regex, JavaScriptWithScope by reference; JavaScript and Symbol a string reference; DBPointer
// the namespace by reference and its ObjectId inline.
public readonly partial struct BsonValue
{
    public static BsonValue MinKey => new(BsonType.MinKey, 0);

    public static BsonValue MaxKey => new(BsonType.MaxKey, 0);

    /// <summary>The deprecated BSON undefined value (distinct from <see cref="Null"/>).</summary>
    public static BsonValue Undefined => new(BsonType.Undefined, 0);

    /// <summary>The exact Decimal128 (NaN, ±Infinity, any exponent and the sign of zero kept).</summary>
    public BsonDecimal128 AsDecimal128 => _type == BsonType.Decimal128
        ? BsonDecimal128.FromIeeeBits((ulong)_bits2, (ulong)_bits)
        : throw WrongType(BsonType.Decimal128);

    public BsonRegex AsRegex => _type == BsonType.Regex ? (BsonRegex)_reference! : throw WrongType(BsonType.Regex);

    public BsonTimestamp AsTimestamp => _type == BsonType.Timestamp ? BsonTimestamp.FromValue((ulong)_bits) : throw WrongType(BsonType.Timestamp);

    public BsonJavaScript AsJavaScript => _type == BsonType.JavaScript ? new((string)_reference!) : throw WrongType(BsonType.JavaScript);

    public BsonSymbol AsSymbol => _type == BsonType.Symbol ? new((string)_reference!) : throw WrongType(BsonType.Symbol);

    public BsonJavaScriptWithScope AsJavaScriptWithScope => _type == BsonType.JavaScriptWithScope
        ? (BsonJavaScriptWithScope)_reference!
        : throw WrongType(BsonType.JavaScriptWithScope);

    public BsonDbPointer AsDbPointer => _type == BsonType.DbPointer
        ? new BsonDbPointer((string)_reference!, InlineObjectId())
        : throw WrongType(BsonType.DbPointer);

    /// <summary>A <see cref="BsonType.UtcDateTime"/> (an instant outside .NET's DateTime range) as milliseconds since the Unix epoch.</summary>
    public long AsUtcDateTimeMilliseconds => _type == BsonType.UtcDateTime ? _bits : throw WrongType(BsonType.UtcDateTime);

    /// <summary>
    /// A BSON UTC datetime: a <see cref="DateTime"/> of Kind Utc when .NET can hold the instant
    /// (years 1–9999), otherwise a <see cref="BsonType.UtcDateTime"/> keeping the milliseconds.
    /// </summary>
    public static BsonValue FromUnixMilliseconds(long milliseconds) =>
        milliseconds >= MinDateTimeMilliseconds && milliseconds <= MaxDateTimeMilliseconds
            ? new DateTime(DateTime.UnixEpoch.Ticks + (milliseconds * TimeSpan.TicksPerMillisecond), DateTimeKind.Utc)
            : new BsonValue(BsonType.UtcDateTime, milliseconds);

    internal static readonly long MinDateTimeMilliseconds = -(DateTime.UnixEpoch.Ticks / TimeSpan.TicksPerMillisecond);
    internal static readonly long MaxDateTimeMilliseconds = (DateTime.MaxValue.Ticks - DateTime.UnixEpoch.Ticks) / TimeSpan.TicksPerMillisecond;

    public static implicit operator BsonValue(BsonDecimal128 value) => new(BsonType.Decimal128, (long)value.LowBits, (long)value.HighBits);

    public static implicit operator BsonValue(BsonRegex? value) => value is null ? default : new(BsonType.Regex, 0, 0, value);

    public static implicit operator BsonValue(BsonTimestamp value) => new(BsonType.Timestamp, (long)value.Value);

    public static implicit operator BsonValue(BsonJavaScript value) => new(BsonType.JavaScript, 0, 0, value.Code);

    public static implicit operator BsonValue(BsonSymbol value) => new(BsonType.Symbol, 0, 0, value.Name);

    public static implicit operator BsonValue(BsonJavaScriptWithScope? value) => value is null ? default : new(BsonType.JavaScriptWithScope, 0, 0, value);

    public static implicit operator BsonValue(BsonDbPointer value)
    {
        Span<byte> bytes = stackalloc byte[16];
        bytes.Clear();
        value.Id.WriteTo(bytes);
        return new(BsonType.DbPointer, BinaryPrimitives.ReadInt64LittleEndian(bytes), BinaryPrimitives.ReadInt64LittleEndian(bytes[8..]), value.Namespace);
    }
}
