using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// Turns a plan's value ranges into encoded <see cref="KeyRange"/>s for the B+ tree. The key
/// encoding keeps integers, doubles and decimals in separate key classes while queries compare
/// numbers by value, so a numeric value or bound becomes one range per numeric class; an open side
/// stops at the end of its class (query comparisons never cross type classes).
/// </summary>
/// <remarks>
/// Ranges are exact for equalities and IN lists and may be slightly wider for numeric ranges whose
/// bound cannot be converted exactly into another class (a double bound on decimal keys): the
/// planner keeps range predicates in the residual filter, so a wider scan never changes a result.
/// Ranges on instants reach only keys of the bound's own type (DateTime or DateTimeOffset), and
/// ranges on binary data only keys of the bound's own key class (UUID or other binary).
/// </remarks>
internal static class IndexKeyRanges
{
    private const byte IntegerTag = (byte)KeyType.Integer;
    private const byte NumbersAfterIntegersTag = (byte)KeyType.LargeInteger + 1;
    private const byte DoubleTag = (byte)KeyType.Double;
    private const byte DecimalTag = (byte)KeyType.Decimal;

    /// <param name="range">A range from <see cref="QueryPlan.TryResolveRanges"/>.</param>
    /// <param name="maxKeySize">The tree's largest key (<see cref="BTree.GetMaxKeySize"/>): a value that cannot fit matches no stored key.</param>
    public static IReadOnlyList<KeyRange> Encode(IndexValueRange range, int maxKeySize)
    {
        ArgumentNullException.ThrowIfNull(range);
        var buffer = new byte[maxKeySize];
        var prefixes = new List<byte[]> { Array.Empty<byte>() };
        foreach (var value in range.Prefix)
        {
            var alternatives = EqualEncodings(value, buffer);
            prefixes = prefixes.SelectMany(p => alternatives.Select(a => Concat(p, a))).Where(p => p.Length <= maxKeySize).ToList();
        }

        var result = new List<KeyRange>();
        if (range.Lower is null && range.Upper is null)
        {
            result.AddRange(prefixes.Select(p => p.Length == 0 ? KeyRange.All : KeyRange.Prefix(p)));
            return result;
        }

        var classRanges = ClassRanges(range.Lower, range.Upper, buffer);
        foreach (var prefix in prefixes)
        {
            foreach (var (lower, upper) in classRanges)
            {
                result.Add(KeyRange.Between(
                    lower.Inclusive ? Concat(prefix, lower.Bytes) : Successor(Concat(prefix, lower.Bytes)), true,
                    upper.Inclusive ? Successor(Concat(prefix, upper.Bytes)) : Concat(prefix, upper.Bytes), false));
            }
        }

        return result;
    }

    /// <summary>One side of a class range: component bytes (or a bare tag byte for an open side) and whether keys starting with them are in.</summary>
    private readonly record struct Side(byte[] Bytes, bool Inclusive);

    /// <summary>Every encoding of a value that equals it by value: 5 is also 5.0 and 5m.</summary>
    private static List<byte[]> EqualEncodings(BsonValue value, byte[] buffer)
    {
        var encodings = new List<byte[]>();
        if (!value.IsNumeric)
        {
            encodings.Add(Encode(value, buffer));
            return encodings;
        }

        foreach (var candidate in NumericForms(value))
        {
            if (candidate.CompareTo(value) == 0)
            {
                encodings.Add(Encode(candidate, buffer));
            }
        }

        return encodings;
    }

    /// <summary>The value converted into each numeric key class where a conversion exists.</summary>
    private static IEnumerable<BsonValue> NumericForms(BsonValue value)
    {
        var asDouble = value.ToDouble();
        if (value.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64)
        {
            yield return value;
        }
        else if (Math.Floor(asDouble) == asDouble && asDouble >= long.MinValue && asDouble < 9.2233720368547758E18)
        {
            yield return (long)asDouble;
        }

        yield return asDouble;
        if (value.Type == BsonType.Decimal128)
        {
            yield return value;
        }
        else if (Math.Abs(asDouble) < 7.9e28)
        {
            yield return value.ToDecimal();
        }
    }

    private static List<(Side Lower, Side Upper)> ClassRanges(RangeBound? lower, RangeBound? upper, byte[] buffer)
    {
        var reference = (lower ?? upper)!.Value.Value;
        if (!reference.IsNumeric)
        {
            var tag = Encode(reference, buffer)[0];
            var lowerSide = lower is { } l ? new Side(Encode(l.Value, buffer), l.Inclusive) : new Side([tag], true);
            var upperSide = upper is { } u ? new Side(Encode(u.Value, buffer), u.Inclusive) : new Side([(byte)(tag + 1)], false);
            return [(lowerSide, upperSide)];
        }

        var ranges = new List<(Side, Side)>();
        if (IntegerSides(lower, upper, buffer) is { } integers)
        {
            ranges.Add(integers);
        }

        ranges.Add((
            lower is { } dl ? DoubleSide(dl, buffer) : new Side([DoubleTag], true),
            upper is { } du ? DoubleSide(du, buffer) : new Side([DoubleTag + 1], false)));
        if (DecimalSides(lower, upper, buffer) is { } decimals)
        {
            ranges.Add(decimals);
        }

        return ranges;
    }

    /// <summary>Integer keys (both integer tags) between the bounds: non-integral bounds round inwards and become inclusive.</summary>
    private static (Side, Side)? IntegerSides(RangeBound? lower, RangeBound? upper, byte[] buffer)
    {
        var lowerSide = new Side([IntegerTag], true);
        if (lower is { } l)
        {
            var value = l.Value.ToDouble();
            if (l.Value.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64)
            {
                lowerSide = new Side(Encode(l.Value, buffer), l.Inclusive);
            }
            else if (value >= 1.8446744073709552E19)
            {
                return null;
            }
            else if (value > long.MinValue)
            {
                var ceiling = l.Value.Type == BsonType.Decimal128 ? (double)decimal.Ceiling(l.Value.AsDecimal) : Math.Ceiling(value);
                var exact = ceiling == value;
                lowerSide = ceiling < 9.2233720368547758E18
                    ? new Side(Encode((long)ceiling, buffer), !exact || l.Inclusive)
                    : new Side([(byte)KeyType.LargeInteger], true);
            }
        }

        var upperSide = new Side([NumbersAfterIntegersTag], false);
        if (upper is { } u)
        {
            var value = u.Value.ToDouble();
            if (u.Value.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64)
            {
                upperSide = new Side(Encode(u.Value, buffer), u.Inclusive);
            }
            else if (value < long.MinValue)
            {
                return null;
            }
            else if (value < 9.2233720368547758E18)
            {
                var floor = u.Value.Type == BsonType.Decimal128 ? (double)decimal.Floor(u.Value.AsDecimal) : Math.Floor(value);
                upperSide = new Side(Encode((long)floor, buffer), floor != value || u.Inclusive);
            }
        }

        return (lowerSide, upperSide);
    }

    /// <summary>Double keys: a bound that is not exactly a double becomes inclusive, which can only widen the range.</summary>
    private static Side DoubleSide(RangeBound bound, byte[] buffer)
    {
        var converted = bound.Value.ToDouble();
        var exact = ((BsonValue)converted).CompareTo(bound.Value) == 0;
        return new Side(Encode(converted, buffer), !exact || bound.Inclusive);
    }

    /// <summary>
    /// Decimal keys: decimal and integer bounds convert exactly; a double bound is widened by a
    /// relative margin, because a decimal and a double compare as doubles and the decimal nearest
    /// to a double may sit on either side of it.
    /// </summary>
    private static (Side, Side)? DecimalSides(RangeBound? lower, RangeBound? upper, byte[] buffer)
    {
        var lowerSide = new Side([DecimalTag], true);
        if (lower is { } l)
        {
            if (!TryToDecimal(l.Value, widenDown: true, out var value, out var exact))
            {
                if (l.Value.ToDouble() > 0)
                {
                    return null;
                }
            }
            else
            {
                lowerSide = new Side(Encode(value, buffer), !exact || l.Inclusive);
            }
        }

        var upperSide = new Side([DecimalTag + 1], false);
        if (upper is { } u)
        {
            if (!TryToDecimal(u.Value, widenDown: false, out var value, out var exact))
            {
                if (u.Value.ToDouble() < 0)
                {
                    return null;
                }
            }
            else
            {
                upperSide = new Side(Encode(value, buffer), !exact || u.Inclusive);
            }
        }

        return (lowerSide, upperSide);
    }

    private static bool TryToDecimal(BsonValue value, bool widenDown, out decimal result, out bool exact)
    {
        exact = value.Type != BsonType.Double;
        if (value.Type != BsonType.Double)
        {
            result = value.ToDecimal();
            return true;
        }

        var d = value.AsDouble;
        if (double.IsNaN(d) || Math.Abs(d) >= 7.9e28)
        {
            result = 0;
            return false;
        }

        var nearest = (decimal)d;
        var margin = Math.Abs(nearest) * 0.000000000001m + 0.0000000000000000000000000001m;
        result = widenDown ? nearest - margin : nearest + margin;
        return true;
    }

    private static byte[] Encode(BsonValue value, byte[] buffer)
    {
        var writer = new KeyWriter(buffer);
        writer.WriteBsonValue(value);
        return writer.WrittenSpan.ToArray();
    }

    private static byte[] Concat(byte[] prefix, byte[] component)
    {
        var bytes = new byte[prefix.Length + component.Length];
        prefix.CopyTo(bytes, 0);
        component.CopyTo(bytes, prefix.Length);
        return bytes;
    }

    /// <summary>The smallest byte string above every key starting with <paramref name="prefix"/>.</summary>
    private static byte[] Successor(byte[] prefix)
    {
        var end = prefix.Length;
        while (end > 0 && prefix[end - 1] == 0xFF)
        {
            end--;
        }

        if (end == 0)
        {
            // Unreachable: every key component starts with a type tag below 0xFF.
            throw new InvalidOperationException("A key made only of 0xFF bytes has no successor.");
        }

        var successor = prefix[..end];
        successor[end - 1]++;
        return successor;
    }
}
