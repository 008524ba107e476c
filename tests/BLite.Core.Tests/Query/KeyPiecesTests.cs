using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>
/// The key pieces the executor scans for a value range (through <see cref="ScanRunBuilder"/>, as
/// the executor does), checked against a one-field index held in a sorted list.
/// </summary>
public class KeyPiecesTests
{
    private const int MaxKeySize = 512;

    /// <summary>A one-field index as the B+ tree holds it: the encoded value, then the encoded primary key.</summary>
    private static List<(byte[] Key, BsonValue Value)> Index(IEnumerable<BsonValue> values)
    {
        var buffer = new byte[MaxKeySize];
        return values.Select((value, id) =>
        {
            var writer = new KeyWriter(buffer);
            writer.WriteBsonValue(value);
            writer.WriteInt64(id);
            return (writer.WrittenSpan.ToArray(), value);
        }).OrderBy(e => e.Item1, Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b))).ToList();
    }

    private static List<(byte[] Key, BsonValue Value)> FoundEntries(List<(byte[] Key, BsonValue Value)> index, IndexValueRange range) =>
        EntryRanges(range).SelectMany(r => index.Where(e => r.Contains(e.Key))).ToList();

    private static BsonValue[] Found(List<(byte[] Key, BsonValue Value)> index, IndexValueRange range) =>
        FoundEntries(index, range).Select(e => e.Value).ToArray();

    /// <summary>The index-entry ranges the executor scans for <paramref name="range"/>.</summary>
    private static IEnumerable<KeyRange> EntryRanges(IndexValueRange range)
    {
        Assert.True(ScanRunBuilder.TryBuild([range], new BsonFieldDictionary(), out var runs));
        return runs.Select(run => RawCollection.ToEntryRange(TransactionalBsonCollection.BuildRange(run.Lower, run.LowerInclusive, run.Upper, run.UpperInclusive)));
    }

    private static bool Matches(BsonValue value, IndexValueRange range)
    {
        if (range.Prefix.Count == 1)
        {
            return BsonValueComparer.SameTypeClass(value, range.Prefix[0]) && value.CompareTo(range.Prefix[0]) == 0;
        }

        bool Side(RangeBound? bound, int sign) => bound is not { } b
            || (BsonValueComparer.SameTypeClass(value, b.Value) && value.CompareTo(b.Value) * sign is var o && (o > 0 || (o == 0 && b.Inclusive)));
        return Side(range.Lower, 1) && Side(range.Upper, -1);
    }

    [Fact]
    public void Numeric_equality_finds_every_width_of_the_same_number()
    {
        var index = Index([5, 5L, 5.0, 5m, 5.5, 6, "5"]);
        var found = Found(index, new IndexValueRange([5]));
        Assert.Equal(4, found.Length);
        Assert.All(found, v => Assert.Equal(0, v.CompareTo(5)));
    }

    [Fact]
    public void Open_sides_stop_at_the_end_of_the_type_class()
    {
        var index = Index([1, 7L, 8.5, 9m, "a", "z", true, BsonValue.Null]);
        Assert.Equal(3, Found(index, new IndexValueRange([], new RangeBound(5, false))).Length);
        Assert.Equal(["a"], Found(index, new IndexValueRange([], upper: new RangeBound("m", true))).Select(v => v.AsString));
    }

    [Fact]
    public void Encoded_ranges_find_exactly_the_values_in_range_across_every_numeric_type()
    {
        const int seed = 5150;
        var random = new Random(seed);
        string[] decimals = ["0.1", "2.6", "1E+1", "NaN", "Infinity", "-Infinity", "1E+400", "-1E-400", "2.50", "0.1000000000000000055511151231257828"];
        BsonValue RandomValue() => random.Next(9) switch
        {
            7 => BsonDecimal128.Parse(decimals[random.Next(decimals.Length)]),
            8 => new[] { 0.1, double.NaN, double.PositiveInfinity, double.NegativeInfinity, -0.0, double.Epsilon, 9223372036854775808.0 }[random.Next(7)],
            0 => random.Next(-20, 20),
            1 => (long)random.Next(-20, 20),
            2 => random.Next(-40, 40) / 2.0,
            3 => random.Next(-40, 40) / 4m,
            4 => new[] { "a", "ab", "b", "ba", "" }[random.Next(5)],
            5 => random.Next(2) == 0,
            _ => random.Next(-3, 3) * 1e20,
        };

        var index = Index(Enumerable.Range(0, 300).Select(_ => RandomValue()));
        var found = 0;
        for (var round = 0; round < 300; round++)
        {
            var a = RandomValue();
            var b = RandomValue();
            var range = random.Next(3) switch
            {
                0 => new IndexValueRange([a]),
                1 => new IndexValueRange([], new RangeBound(a, random.Next(2) == 0), random.Next(2) == 0 ? null : new RangeBound(b, random.Next(2) == 0)),
                _ => new IndexValueRange([], null, new RangeBound(b, random.Next(2) == 0)),
            };
            if (range.Lower is { } l && range.Upper is { } u && !BsonValueComparer.SameTypeClass(l.Value, u.Value))
            {
                continue;
            }

            var expected = index.Where(e => Matches(e.Value, range)).ToList();
            var actual = FoundEntries(index, range);
            var missing = expected.Except(actual).Select(e => e.Value).ToList();
            var extra = actual.Except(expected).Select(e => e.Value).ToList();
            Assert.True(missing.Count == 0 && actual.Count == actual.Distinct().Count(), $"seed {seed}, round {round}: {range} misses {string.Join(", ", missing)}");

            // Every number is one key class ordered by exact value: the scan is never wider than the range.
            Assert.True(extra.Count == 0, $"seed {seed}, round {round}: {range} also finds {string.Join(", ", extra)}");
            found += actual.Count;
        }

        Assert.True(found > 3000, $"the ranges found only {found} entries");
    }
}
