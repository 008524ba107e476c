using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// Turns query values into key pieces. Queries compare by value across types of one class, but the
/// key encoding keeps integers, doubles and decimals (and DateTime / DateTimeOffset) under separate
/// tags that never interleave (docs/format.md 4.1). So a value yields one piece per key class the
/// stored data might use, with bounds converted into that class. Conversions that may round are
/// widened outward: a piece only needs to cover every matching key, because the executor
/// re-checks the whole filter on each fetched document.
/// </summary>
internal static class KeyPieces
{
    /// <summary>More than any offset a Local DateTime can have (±14 h), so ranges on raw ticks cover every Kind.</summary>
    private static readonly long InstantMarginTicks = TimeSpan.FromHours(15).Ticks;

    private const double LongLowerLimit = -9.2233720368547758E18;
    private const double LongUpperLimit = 9.2233720368547758E18;
    private const double ULongUpperLimit = 1.8446744073709552E19;
    private const decimal DecimalSafeLimit = 7.0e28m;
    private const double DecimalSafeLimitAsDouble = 7.0e28;

    private enum Side
    {
        Lower,
        Upper,
    }

    public static List<KeyPiece> ForEquality(BsonValue value, BsonFieldDictionary fields)
    {
        var pieces = new List<KeyPiece>(3);
        switch (BsonValueComparer.TypeClass(value.Type))
        {
            case 1:
                AddNumberEquality(value, fields, pieces);
                break;
            case 5:
                pieces.Add(KeyPiece.Tags(KeyType.Binary, KeyType.Guid));
                break;
            case 8:
                AddInstantRange(new RangeBound(value, true), new RangeBound(value, true), fields, pieces);
                break;
            default:
                pieces.Add(KeyPiece.Point(KeyPiece.Encode(fields, value)));
                break;
        }

        return pieces;
    }

    /// <summary>Pieces for an interval of one type class; at least one side is present.</summary>
    public static List<KeyPiece> ForRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields)
    {
        var pieces = new List<KeyPiece>(3);
        var sample = (lower ?? upper)!.Value.Value;
        switch (BsonValueComparer.TypeClass(sample.Type))
        {
            case 1:
                AddIntegerRange(lower, upper, fields, pieces);
                AddDoubleRange(lower, upper, fields, pieces);
                AddDecimalRange(lower, upper, fields, pieces);
                break;
            case 5:
                pieces.Add(KeyPiece.Tags(KeyType.Binary, KeyType.Guid));
                break;
            case 8:
                AddInstantRange(lower, upper, fields, pieces);
                break;
            default:
                var tag = TagOf(sample.Type);
                pieces.Add(KeyPiece.Interval(
                    lower is { } l ? KeyPiece.Encode(fields, l.Value) : [(byte)tag], lower?.Inclusive ?? true,
                    upper is { } u ? KeyPiece.Encode(fields, u.Value) : [(byte)tag], upper?.Inclusive ?? true));
                break;
        }

        return pieces;
    }

    private static KeyType TagOf(BsonType type) => type switch
    {
        BsonType.String => KeyType.String,
        BsonType.ObjectId => KeyType.ObjectId,
        BsonType.Boolean => KeyType.Boolean,
        BsonType.TimeSpan => KeyType.TimeSpan,
        BsonType.DateOnly => KeyType.DateOnly,
        BsonType.TimeOnly => KeyType.TimeOnly,
        BsonType.Timestamp => KeyType.Timestamp,
        BsonType.MinKey => KeyType.MinKey,
        BsonType.MaxKey => KeyType.MaxKey,
        _ => throw new ArgumentException($"A {type} value has no single key class."),
    };

    private static void AddNumberEquality(BsonValue value, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        if (TryExactInteger(value, out var integer))
        {
            pieces.Add(KeyPiece.Point(KeyPiece.Encode(fields, integer)));
        }

        // A double equals a decimal when the decimal converted to double equals it, and equals an
        // integer only when it holds exactly that integer, so converting to double is exact enough.
        var asDouble = value.ToDouble();
        if (!double.IsNaN(asDouble) || value.Type == BsonType.Double)
        {
            pieces.Add(KeyPiece.Point(KeyPiece.Encode(fields, value.Type == BsonType.Double ? value : asDouble)));
        }

        if (value.Type != BsonType.Double)
        {
            pieces.Add(KeyPiece.Point(KeyPiece.Encode(fields, value.ToDecimal())));
        }
        else
        {
            AddDecimalRange(new RangeBound(value, true), new RangeBound(value, true), fields, pieces);
        }
    }

    private static bool TryExactInteger(BsonValue value, out BsonValue integer)
    {
        integer = default;
        switch (value.Type)
        {
            case BsonType.Int32 or BsonType.Int64 or BsonType.UInt64:
                integer = value;
                return true;
            case BsonType.Double:
                var d = value.AsDouble;
                if (d != Math.Floor(d) || d < LongLowerLimit || d >= ULongUpperLimit)
                {
                    return false;
                }

                integer = d < LongUpperLimit ? (long)d : (ulong)d;
                return true;
            case BsonType.Decimal128:
                var m = value.AsDecimal;
                if (m != decimal.Truncate(m) || m < long.MinValue || m > ulong.MaxValue)
                {
                    return false;
                }

                integer = m <= long.MaxValue ? (long)m : (ulong)m;
                return true;
            default:
                return false;
        }
    }

    private static void AddIntegerRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        if (!TryIntegerBound(lower, Side.Lower, out var low, out var lowInclusive, fields)
            || !TryIntegerBound(upper, Side.Upper, out var high, out var highInclusive, fields))
        {
            return;
        }

        pieces.Add(KeyPiece.Interval(low ?? [(byte)KeyType.Integer], lowInclusive, high ?? [(byte)KeyType.LargeInteger], highInclusive));
    }

    /// <returns>False when no integer can satisfy the side; <paramref name="key"/> null when the side is open for integers.</returns>
    private static bool TryIntegerBound(RangeBound? bound, Side side, out byte[]? key, out bool inclusive, BsonFieldDictionary fields)
    {
        key = null;
        inclusive = true;
        if (bound is not { } b)
        {
            return true;
        }

        var value = b.Value;
        if (value.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64)
        {
            key = KeyPiece.Encode(fields, value);
            inclusive = b.Inclusive;
            return true;
        }

        // Widen to the next whole number outward (plus one) and keep it inclusive.
        double edge;
        if (value.Type == BsonType.Decimal128)
        {
            var m = value.AsDecimal;
            var whole = side == Side.Lower ? decimal.Floor(m) : decimal.Ceiling(m);
            if (whole < long.MinValue)
            {
                return side == Side.Lower;
            }

            if (whole > ulong.MaxValue)
            {
                return side == Side.Upper;
            }

            key = KeyPiece.Encode(fields, whole <= long.MaxValue ? (long)whole : (ulong)whole);
            return true;
        }
        else
        {
            edge = value.AsDouble;
            if (double.IsNaN(edge))
            {
                return side == Side.Lower;
            }

            edge = side == Side.Lower ? Math.Floor(edge) : Math.Ceiling(edge);
        }

        edge += side == Side.Lower ? -1 : 1;
        if (edge <= LongLowerLimit)
        {
            return side == Side.Lower;
        }

        if (edge >= ULongUpperLimit)
        {
            return side == Side.Upper;
        }

        key = KeyPiece.Encode(fields, edge < LongUpperLimit ? (long)edge : (ulong)edge);
        return true;
    }

    private static void AddDoubleRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        byte[] low = [(byte)KeyType.Double];
        byte[] high = [(byte)KeyType.Double];
        var lowInclusive = true;
        var highInclusive = true;
        if (lower is { } l)
        {
            low = KeyPiece.Encode(fields, l.Value.Type == BsonType.Double ? l.Value.AsDouble : Math.BitDecrement(l.Value.ToDouble()));
            lowInclusive = l.Value.Type != BsonType.Double || l.Inclusive;
        }

        if (upper is { } u)
        {
            high = KeyPiece.Encode(fields, u.Value.Type == BsonType.Double ? u.Value.AsDouble : Math.BitIncrement(u.Value.ToDouble()));
            highInclusive = u.Value.Type != BsonType.Double || u.Inclusive;
        }

        pieces.Add(KeyPiece.Interval(low, lowInclusive, high, highInclusive));
    }

    private static void AddDecimalRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        if (!TryDecimalBound(lower, Side.Lower, out var low, out var lowInclusive, fields)
            || !TryDecimalBound(upper, Side.Upper, out var high, out var highInclusive, fields))
        {
            return;
        }

        pieces.Add(KeyPiece.Interval(low ?? [(byte)KeyType.Decimal], lowInclusive, high ?? [(byte)KeyType.Decimal], highInclusive));
    }

    private static bool TryDecimalBound(RangeBound? bound, Side side, out byte[]? key, out bool inclusive, BsonFieldDictionary fields)
    {
        key = null;
        inclusive = true;
        if (bound is not { } b)
        {
            return true;
        }

        var value = b.Value;
        if (value.Type != BsonType.Double)
        {
            key = KeyPiece.Encode(fields, value.ToDecimal());
            inclusive = b.Inclusive;
            return true;
        }

        // A stored decimal is compared with a double after conversion to double, and the
        // double -> decimal conversion keeps ~15 digits: widen by a relative margin far above both.
        var d = value.AsDouble;
        if (double.IsNaN(d))
        {
            return side == Side.Lower;
        }

        if (d >= DecimalSafeLimitAsDouble)
        {
            return side == Side.Upper;
        }

        if (d <= -DecimalSafeLimitAsDouble)
        {
            return side == Side.Lower;
        }

        var m = (decimal)d;
        var margin = Math.Abs(m) * 1e-12m + 1e-27m;
        var edge = side == Side.Lower ? m - margin : m + margin;
        if (Math.Abs(edge) >= DecimalSafeLimit)
        {
            return true;
        }

        key = KeyPiece.Encode(fields, edge);
        return true;
    }

    /// <summary>
    /// DateTime keys hold raw ticks (no Kind) while queries order Local values by their UTC
    /// instant; DateTimeOffset keys hold the UTC instant. Both classes are scanned on ticks
    /// widened by more than any UTC offset.
    /// </summary>
    private static void AddInstantRange(RangeBound? lower, RangeBound? upper, BsonFieldDictionary fields, List<KeyPiece> pieces)
    {
        var low = lower is { } l ? (long?)Math.Max(DateTime.MinValue.Ticks, OrderingTicks(l.Value) - InstantMarginTicks) : null;
        var high = upper is { } u ? (long?)Math.Min(DateTime.MaxValue.Ticks, OrderingTicks(u.Value) + InstantMarginTicks) : null;
        if (low > high)
        {
            return;
        }

        pieces.Add(KeyPiece.Interval(
            low is { } a ? KeyPiece.Encode(fields, new DateTime(a, DateTimeKind.Utc)) : [(byte)KeyType.DateTime], true,
            high is { } b ? KeyPiece.Encode(fields, new DateTime(b, DateTimeKind.Utc)) : [(byte)KeyType.DateTime], true));
        pieces.Add(KeyPiece.Interval(
            low is { } c ? DateTimeOffsetInstantPrefix(fields, c) : [(byte)KeyType.DateTimeOffset], true,
            high is { } d ? DateTimeOffsetInstantPrefix(fields, d) : [(byte)KeyType.DateTimeOffset], true));
    }

    internal static long OrderingTicks(BsonValue value) => value.Type == BsonType.DateTimeOffset
        ? value.AsDateTimeOffset.UtcTicks
        : value.AsDateTime is { Kind: DateTimeKind.Local } local ? local.ToUniversalTime().Ticks : value.AsDateTime.Ticks;

    /// <summary>The tag and UTC ticks of a DateTimeOffset key, without its offset bytes: a prefix of every offset.</summary>
    private static byte[] DateTimeOffsetInstantPrefix(BsonFieldDictionary fields, long utcTicks)
    {
        var full = KeyPiece.Encode(fields, new DateTimeOffset(utcTicks, TimeSpan.Zero));
        return full.AsSpan(0, 9).ToArray();
    }
}
