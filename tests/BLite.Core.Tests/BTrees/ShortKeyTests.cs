using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>The word-wise comparison of short keys orders exactly as comparing their bytes does.</summary>
public class ShortKeyTests
{
    [Fact]
    public void Short_keys_compare_as_their_bytes_do_including_prefixes_and_zero_bytes()
    {
        var random = new Random(15);
        var compared = 0;
        var prefixes = 0;
        for (var i = 0; i < 20_000; i++)
        {
            var left = RandomKey(random);
            var right = random.Next(4) == 0 ? Variant(random, left) : RandomKey(random);
            if (left.Length != right.Length && left.AsSpan(0, Math.Min(left.Length, right.Length)).SequenceEqual(right.AsSpan(0, Math.Min(left.Length, right.Length))))
            {
                prefixes++;
            }

            var expected = Math.Sign(left.AsSpan().SequenceCompareTo(right));
            Assert.Equal(expected, Math.Sign(new ShortKey(right).CompareFrom(left)));
            compared++;
        }

        Assert.Equal(20_000, compared);
        Assert.True(prefixes > 100, $"only {prefixes} prefix pairs were compared");
    }

    [Theory]
    [InlineData(new byte[] { }, new byte[] { 0 })]
    [InlineData(new byte[] { 1, 2, 3 }, new byte[] { 1, 2, 3, 0 })]
    [InlineData(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 }, new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 0 })]
    [InlineData(new byte[] { 0xFF }, new byte[] { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF })]
    public void A_key_orders_before_the_same_key_with_zero_bytes_appended(byte[] shorter, byte[] longer)
    {
        Assert.True(new ShortKey(longer).CompareFrom(shorter) < 0);
        Assert.True(new ShortKey(shorter).CompareFrom(longer) > 0);
        Assert.Equal(0, new ShortKey(shorter).CompareFrom(shorter));
    }

    private static byte[] RandomKey(Random random)
    {
        var key = new byte[random.Next(ShortKey.MaxLength + 1)];
        for (var i = 0; i < key.Length; i++)
        {
            // Few distinct byte values, zero among them, so equal prefixes and zero padding meet often.
            key[i] = (byte)(random.Next(3) switch { 0 => 0, 1 => 0xFF, _ => random.Next(4) });
        }

        return key;
    }

    private static byte[] Variant(Random random, byte[] key)
    {
        var length = Math.Clamp(key.Length + random.Next(-2, 3), 0, ShortKey.MaxLength);
        var variant = new byte[length];
        key.AsSpan(0, Math.Min(length, key.Length)).CopyTo(variant);
        return variant;
    }
}
