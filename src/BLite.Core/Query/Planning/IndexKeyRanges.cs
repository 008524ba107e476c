using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Query;

/// <summary>
/// Turns a plan's value ranges into encoded <see cref="KeyRange"/>s for the B+ tree. Every number
/// is one key class ordered by exact value, as queries compare numbers, so a numeric value or
/// bound is one range whatever its type; an open side stops at the end of its class (query
/// comparisons never cross type classes).
/// </summary>
/// <remarks>
/// Ranges on instants reach only keys of the bound's own type (DateTime or DateTimeOffset), and
/// ranges on binary data only keys of the bound's own key class (UUID or other binary).
/// </remarks>
internal static class IndexKeyRanges
{
    /// <param name="range">A range from <see cref="QueryPlan.TryResolveRanges"/>.</param>
    /// <param name="maxKeySize">The tree's largest key (<see cref="BTree.GetMaxKeySize"/>): a value that cannot fit matches no stored key.</param>
    public static IReadOnlyList<KeyRange> Encode(IndexValueRange range, int maxKeySize)
    {
        ArgumentNullException.ThrowIfNull(range);
        var buffer = new byte[maxKeySize];
        var prefixes = new List<byte[]> { Array.Empty<byte>() };
        foreach (var value in range.Prefix)
        {
            var encoded = Encode(value, buffer);
            prefixes = prefixes.Select(p => Concat(p, encoded)).Where(p => p.Length <= maxKeySize).ToList();
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

    private static List<(Side Lower, Side Upper)> ClassRanges(RangeBound? lower, RangeBound? upper, byte[] buffer)
    {
        var tag = Encode((lower ?? upper)!.Value.Value, buffer)[0];
        var lowerSide = lower is { } l ? new Side(Encode(l.Value, buffer), l.Inclusive) : new Side([tag], true);
        var upperSide = upper is { } u ? new Side(Encode(u.Value, buffer), u.Inclusive) : new Side([(byte)(tag + 1)], false);
        return [(lowerSide, upperSide)];
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
