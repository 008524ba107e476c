using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>The key buffer of an index join: sorted bytewise and de-duplicated, whether its keys arrive in order or not.</summary>
public class PrimaryKeyBufferTests
{
    [Theory]
    [InlineData(0, 0)]
    [InlineData(1, 1)]
    [InlineData(7, 40)]
    [InlineData(11, 700)]
    public void Keys_come_out_in_bytewise_order_each_once(int seed, int count)
    {
        var random = new Random(seed);
        var keys = new List<byte[]>();
        for (var i = 0; i < count; i++)
        {
            // Varied lengths (a shorter key sorts before the longer keys it prefixes) and repeats.
            var key = new byte[random.Next(0, 5)];
            random.NextBytes(key);
            keys.Add(key);
            if (random.Next(4) == 0)
            {
                keys.Add(key);
            }
        }

        var expected = keys.Distinct(ByteArrayComparer.Instance).Order(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b))).ToList();

        Assert.Equal(expected, Sorted(keys));
    }

    [Fact]
    public void Keys_added_in_order_keep_their_order_and_lose_only_repeats()
    {
        var keys = Enumerable.Range(0, 300).Select(i => new[] { (byte)(i / 256), (byte)(i % 256) }).ToList();
        var withRepeats = keys.SelectMany(k => new[] { k, k }).ToList();

        Assert.Equal(keys, Sorted(withRepeats));
    }

    [Fact]
    public void Sorted_runs_that_interleave_are_merged()
    {
        // The shape of a join over two values whose documents interleave: each run ascending, the whole not.
        var evens = Enumerable.Range(0, 50).Select(i => new[] { (byte)(2 * i) });
        var odds = Enumerable.Range(0, 50).Select(i => new[] { (byte)(2 * i + 1) });

        Assert.Equal(Enumerable.Range(0, 100).Select(i => new[] { (byte)i }).ToList(), Sorted(evens.Concat(odds).ToList()));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(37)]
    [InlineData(200)]
    public void Many_ascending_runs_that_overlap_are_merged_into_one_order(int runs)
    {
        // A join over many values: each value's keys ascend, runs overlap and share keys, and the
        // run count is odd as often as even (the last run of a merge pass has no partner).
        var random = new Random(runs);
        var keys = new List<byte[]>();
        for (var run = 0; run < runs; run++)
        {
            var start = random.Next(0, 1000);
            keys.AddRange(Enumerable.Range(0, random.Next(1, 12)).Select(i => Key(start + (i * random.Next(1, 40)))));
        }

        var expected = keys.Distinct(ByteArrayComparer.Instance).Order(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b))).ToList();

        Assert.True(expected.Count < keys.Count || runs < 37, "runs this long should share keys");
        Assert.Equal(expected, Sorted(keys));
    }

    private static byte[] Key(int value) => [(byte)(value >> 8), (byte)value];

    private static List<byte[]> Sorted(List<byte[]> keys)
    {
        var buffer = new PrimaryKeyBuffer();
        foreach (var key in keys)
        {
            buffer.Add(key);
        }

        buffer.SortDistinct();
        var result = new List<byte[]>();
        for (var i = 0; i < buffer.Count; i++)
        {
            result.Add(buffer[i].ToArray());
        }

        return result;
    }
}
