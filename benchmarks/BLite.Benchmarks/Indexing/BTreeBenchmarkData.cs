using BLite.Core.BTrees;

namespace BLite.Benchmarks.Indexing;

/// <summary>Seeded random keys (encoded 64-bit integers) and fixed-size values for the tree benchmarks.</summary>
internal static class BTreeBenchmarkData
{
    public const int ValueSize = 32;

    public static byte[][] RandomKeys(int count, int seed)
    {
        var random = new Random(seed);
        var keys = new byte[count][];
        var seen = new HashSet<long>(count);
        for (var i = 0; i < count; i++)
        {
            long value;
            do
                value = random.NextInt64();
            while (!seen.Add(value));
            keys[i] = Encode(value);
        }
        return keys;
    }

    public static byte[] Encode(long value)
    {
        var key = new byte[9];
        var writer = new KeyWriter(key);
        writer.WriteInt64(value);
        return key;
    }

    public static byte[][] Shuffled(byte[][] keys, int count, int seed)
    {
        var random = new Random(seed);
        var picked = new byte[count][];
        for (var i = 0; i < count; i++)
            picked[i] = keys[random.Next(keys.Length)];
        return picked;
    }
}
