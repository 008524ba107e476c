using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary><see cref="BTreeNode.LowerBound"/> against a linear search over the same node.</summary>
public class LowerBoundTests
{
    [Fact]
    public void Lower_bound_matches_a_linear_search_for_short_and_long_keys_present_or_absent()
    {
        var random = new Random(16);
        var page = new byte[8192];
        var probes = 0;
        var hits = 0;
        var shortProbesOverLongKeys = 0;
        for (var round = 0; round < 200; round++)
        {
            var keys = new SortedSet<byte[]>(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
            var count = random.Next(0, 60);
            while (keys.Count < count)
            {
                keys.Add(RandomKey(random));
            }

            BTreeNode.Initialize(page, BTreeNode.LeafKind);
            foreach (var key in keys)
            {
                var cell = new byte[BTreeNode.CellHeaderSize + key.Length];
                BTreeNode.WriteLeafCell(cell, key, 0);
                BTreeNode.AppendCell(page, cell);
            }

            var stored = keys.ToList();
            for (var i = 0; i < 50; i++)
            {
                var probe = random.Next(3) == 0 && stored.Count > 0 ? stored[random.Next(stored.Count)] : RandomKey(random);
                var expected = stored.FindIndex(k => k.AsSpan().SequenceCompareTo(probe) >= 0);
                expected = expected < 0 ? stored.Count : expected;
                var expectedFound = expected < stored.Count && stored[expected].AsSpan().SequenceEqual(probe);

                var index = BTreeNode.LowerBound(page, probe, out var found);

                Assert.Equal(expected, index);
                Assert.Equal(expectedFound, found);
                probes++;
                hits += found ? 1 : 0;
                shortProbesOverLongKeys += probe.Length <= ShortKey.MaxLength && stored.Any(k => k.Length > ShortKey.MaxLength) ? 1 : 0;
            }
        }

        Assert.Equal(10_000, probes);
        Assert.True(hits > 1_000, $"only {hits} probes found their key");
        Assert.True(shortProbesOverLongKeys > 1_000, $"only {shortProbesOverLongKeys} short probes met long stored keys");
    }

    private static byte[] RandomKey(Random random)
    {
        // Lengths around the 16-byte limit of the word-wise comparison, few distinct byte values
        // (zero among them) so shared prefixes and zero padding are common.
        var key = new byte[random.Next(0, 24)];
        for (var i = 0; i < key.Length; i++)
        {
            key[i] = (byte)(random.Next(3) switch { 0 => 0, 1 => 0xFF, _ => random.Next(3) });
        }

        return key;
    }
}
