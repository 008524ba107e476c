using System.Buffers.Binary;

namespace BLite.Bson;

/// <summary>
/// An IEEE 754-2008 decimal128 value (BID layout, as BSON stores it), held as its exact 128 bits:
/// the exponent (so <c>1E+3</c> stays distinct from <c>1000</c>), the sign of zero, NaN, ±Infinity
/// and the full range (34 digits, exponents −6176 to +6111). Text follows the BSON Decimal128
/// specification's to-scientific-string form both ways (<see cref="ToString"/>, <see cref="Parse"/>).
/// Equality and ordering are by numeric value (<c>1.0</c> equals <c>1.00</c>; NaN equals NaN and
/// sorts below every number); <see cref="BitsEqual"/> compares the exact bits.
/// </summary>
public readonly partial struct BsonDecimal128 : IEquatable<BsonDecimal128>, IComparable<BsonDecimal128>
{
    public const int Size = 16;

    internal const int ExponentBias = 6176;
    internal const int MinExponent = -6176;
    internal const int MaxExponent = 6111;
    internal const int MaxDigits = 34;
    internal static readonly UInt128 MaxCoefficient = UInt128.Parse("9999999999999999999999999999999999");

    private const ulong SignBit = 1UL << 63;
    private const ulong InfinityHigh = 0x7800000000000000UL;
    private const ulong NaNHigh = 0x7C00000000000000UL;

    private BsonDecimal128(ulong highBits, ulong lowBits)
    {
        HighBits = highBits;
        LowBits = lowBits;
    }

    /// <summary>Bits 64–127: sign, combination field, exponent and the top of the coefficient.</summary>
    public ulong HighBits { get; }

    /// <summary>Bits 0–63: the low part of the coefficient.</summary>
    public ulong LowBits { get; }

    public static BsonDecimal128 Zero => FromParts(false, UInt128.Zero, 0);

    public static BsonDecimal128 NaN => new(NaNHigh, 0);

    public static BsonDecimal128 PositiveInfinity => new(InfinityHigh, 0);

    public static BsonDecimal128 NegativeInfinity => new(InfinityHigh | SignBit, 0);

    public static BsonDecimal128 MaxValue => FromParts(false, MaxCoefficient, MaxExponent);

    public static BsonDecimal128 MinValue => FromParts(true, MaxCoefficient, MaxExponent);

    /// <summary>Any 128 bits, kept as they are (non-canonical encodings read as zero, as the specification says).</summary>
    public static BsonDecimal128 FromIeeeBits(ulong highBits, ulong lowBits) => new(highBits, lowBits);

    /// <summary>(−1)^sign × coefficient × 10^exponent; the coefficient must be below 10^34 and the exponent in −6176..6111.</summary>
    public static BsonDecimal128 FromParts(bool negative, UInt128 coefficient, int exponent)
    {
        if (coefficient > MaxCoefficient)
        {
            throw new ArgumentOutOfRangeException(nameof(coefficient), "A decimal128 coefficient has at most 34 digits.");
        }

        if (exponent is < MinExponent or > MaxExponent)
        {
            throw new ArgumentOutOfRangeException(nameof(exponent), $"A decimal128 exponent lies in {MinExponent}..{MaxExponent}.");
        }

        var high = (ulong)(coefficient >> 64) | ((ulong)(exponent + ExponentBias) << 49) | (negative ? SignBit : 0);
        return new BsonDecimal128(high, (ulong)coefficient);
    }

    /// <summary>Reads 16 bytes: the low word then the high word, little-endian (BSON's layout).</summary>
    public static BsonDecimal128 ReadFrom(ReadOnlySpan<byte> source) =>
        new(BinaryPrimitives.ReadUInt64LittleEndian(source[8..]), BinaryPrimitives.ReadUInt64LittleEndian(source));

    /// <summary>Writes the 16 bytes BSON stores.</summary>
    public void WriteTo(Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(destination, LowBits);
        BinaryPrimitives.WriteUInt64LittleEndian(destination[8..], HighBits);
    }

    public bool IsNaN => (HighBits & 0x7C00000000000000UL) == NaNHigh;

    public bool IsInfinity => (HighBits & 0x7C00000000000000UL) == InfinityHigh;

    public bool IsFinite => (HighBits & 0x7800000000000000UL) != InfinityHigh;

    /// <summary>The sign bit (set for negative zero, and kept on NaN).</summary>
    public bool IsNegative => (HighBits & SignBit) != 0;

    public bool IsZero => IsFinite && Decompose(out _, out var coefficient, out _) == Kind.Finite && coefficient == UInt128.Zero;

    internal enum Kind
    {
        Finite,
        Infinity,
        NaN,
    }

    /// <summary>
    /// The value's parts. A coefficient of 10^34 or more, and the 11-prefixed combination form
    /// that is not Infinity or NaN, are non-canonical: the specification reads them as zero.
    /// </summary>
    internal Kind Decompose(out bool negative, out UInt128 coefficient, out int exponent)
    {
        negative = IsNegative;
        if ((HighBits & 0x6000000000000000UL) == 0x6000000000000000UL)
        {
            if (IsNaN)
            {
                coefficient = UInt128.Zero;
                exponent = 0;
                return Kind.NaN;
            }

            if (IsInfinity)
            {
                coefficient = UInt128.Zero;
                exponent = 0;
                return Kind.Infinity;
            }

            // Implied coefficient 0b100 followed by 111 bits: always above 10^34, so zero.
            coefficient = UInt128.Zero;
            exponent = (int)((HighBits >> 47) & 0x3FFF) - ExponentBias;
            return Kind.Finite;
        }

        exponent = (int)((HighBits >> 49) & 0x3FFF) - ExponentBias;
        coefficient = new UInt128(HighBits & ((1UL << 49) - 1), LowBits);
        if (coefficient > MaxCoefficient)
        {
            coefficient = UInt128.Zero;
        }

        return Kind.Finite;
    }

    /// <summary>
    /// The sign, coefficient and exponent of a finite value, (−1)^negative × coefficient ×
    /// 10^exponent (a non-canonical encoding gives coefficient 0); false for NaN and ±Infinity.
    /// </summary>
    public bool TryGetFiniteParts(out bool negative, out UInt128 coefficient, out int exponent) =>
        Decompose(out negative, out coefficient, out exponent) == Kind.Finite;

    /// <summary>Whether both hold the same 128 bits (unlike <see cref="Equals(BsonDecimal128)"/>, which compares values).</summary>
    public bool BitsEqual(BsonDecimal128 other) => HighBits == other.HighBits && LowBits == other.LowBits;
}
