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
