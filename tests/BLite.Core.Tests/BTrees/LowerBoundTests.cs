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

    [Fact]
    public void Lower_bound_over_object_id_keys_that_differ_only_in_their_last_byte_matches_a_linear_search()
    {
        // Primary keys of ObjectIds: a type byte and twelve bytes, so every stored key has the
        // probe's length and neighbours share all but their last byte (or the last two).
        var random = new Random(12);
        var prefix = new byte[12];
        random.NextBytes(prefix);
        var stored = new List<byte[]>();
        for (var high = 0; high < 3; high++)
        {
            for (var last = 0; last < 256; last += 1 + random.Next(3))
            {
                var key = ObjectIdKey(prefix, (byte)(0x10 + high), (byte)last);
                stored.Add(key);
            }
        }

        var page = new byte[16384];
        Fill(page, BTreeNode.LeafKind, stored);
        var probes = 0;
        var hits = 0;
        for (var high = 0; high < 4; high++)
        {
            for (var last = 0; last < 256; last++)
            {
                var probe = ObjectIdKey(prefix, (byte)(0x10 + high), (byte)last);
                var (expected, expectedFound) = Linear(stored, probe);
                var index = BTreeNode.LowerBound(page, probe, out var found);
                Assert.Equal(expected, index);
                Assert.Equal(expectedFound, found);
                probes++;
                hits += found ? 1 : 0;
            }
        }

        Assert.Equal(1024, probes);
        Assert.Equal(stored.Count, hits);
        Assert.True(hits < probes / 2, "probes between stored keys must miss as well as hit");
    }

    [Fact]
    public void Lower_bound_over_non_unique_index_entries_finds_the_first_entry_of_a_field_value()
    {
        // A non-unique index stores (field key, primary key): equal field values repeat, told apart
        // only by the primary key after them. Seeking a field value finds its first entry; seeking
        // an entry finds that entry.
        var random = new Random(30);
        var fieldValues = new[] { new byte[] { 0x20, 1 }, [0x20, 1, 0], [0x20, 2], [0x30, 0xFF, 0xFF, 0xFF] };
        var stored = new List<byte[]>();
        foreach (var field in fieldValues)
        {
            var primaries = new SortedSet<int>();
            while (primaries.Count < 25)
            {
                primaries.Add(random.Next(1, 400));
            }

            foreach (var primary in primaries)
            {
                stored.Add([.. field, 0x10, (byte)(primary >> 8), (byte)primary]);
            }
        }

        stored.Sort((a, b) => a.AsSpan().SequenceCompareTo(b));
        var page = new byte[8192];
        Fill(page, BTreeNode.LeafKind, stored);
        var prefixProbes = 0;
        foreach (var field in fieldValues)
        {
            var (expected, _) = Linear(stored, field);
            Assert.Equal(expected, BTreeNode.LowerBound(page, field, out var found));
            Assert.False(found);
            Assert.True(stored[expected].AsSpan().StartsWith(field), "a field value's seek must land on its first entry");
            prefixProbes++;
        }

        foreach (var entry in stored)
        {
            Assert.Equal(Linear(stored, entry).Index, BTreeNode.LowerBound(page, entry, out var found));
            Assert.True(found);
        }

        Assert.Equal(fieldValues.Length, prefixProbes);
    }

    [Fact]
    public void Child_index_in_a_branch_of_fixed_size_keys_matches_a_linear_count_of_keys_not_above_the_probe()
    {
        var random = new Random(13);
        var keys = new SortedSet<byte[]>(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
        while (keys.Count < 90)
        {
            var key = new byte[13];
            key[0] = 0x10;
            random.NextBytes(key.AsSpan(1, 11));
            key[1] = (byte)(key[1] & 3);
            keys.Add(key);
        }

        var stored = keys.ToList();
        var page = new byte[4096];
        Fill(page, BTreeNode.BranchKind, stored);
        for (var i = 0; i < 2000; i++)
        {
            var probe = i % 2 == 0 ? (byte[])stored[random.Next(stored.Count)].Clone() : new byte[13];
            if (i % 2 == 1)
            {
                probe[0] = 0x10;
                random.NextBytes(probe.AsSpan(1));
                probe[1] = (byte)(probe[1] & 3);
            }
            else if (i % 4 == 0)
            {
                probe[12] ^= 1;
            }

            var expected = stored.Count(k => k.AsSpan().SequenceCompareTo(probe) <= 0);
            Assert.Equal(expected, BTreeNode.ChildIndexFor(page, probe));
        }
    }

    [Fact]
    public void A_slot_pointing_past_the_page_fails_the_search_as_the_checked_accessors_do()
    {
        var page = new byte[4096];
        var stored = Enumerable.Range(0, 20).Select(i => new byte[] { 0x10, 0, 0, (byte)i }).ToList();
        Fill(page, BTreeNode.LeafKind, stored);

        // The middle slot (the first probe) points at the last two bytes of the page: a key length
        // could be read there, but not the cell header.
        System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(page.AsSpan(BTreeNode.HeaderSize + (9 * BTreeNode.SlotSize)), (ushort)(page.Length - 2));
        Assert.Throws<ArgumentOutOfRangeException>(() => BTreeNode.LowerBound(page, stored[3], out _));

        // A key length running past the page.
        Fill(page, BTreeNode.LeafKind, stored);
        var offset = BTreeNode.CellOffset(page, 9);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(page.AsSpan(offset), (ushort)(page.Length - offset));
        Assert.Throws<ArgumentOutOfRangeException>(() => BTreeNode.LowerBound(page, stored[3], out _));

        // A cell count whose slots would run past the page.
        Fill(page, BTreeNode.LeafKind, stored);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(page.AsSpan(2), 60000);
        Assert.Throws<ArgumentOutOfRangeException>(() => BTreeNode.LowerBound(page, stored[3], out _));
    }

    private static byte[] ObjectIdKey(byte[] prefix, byte secondToLast, byte last)
    {
        var key = new byte[13];
        key[0] = 0x10;
        prefix.AsSpan(0, 10).CopyTo(key.AsSpan(1));
        key[11] = secondToLast;
        key[12] = last;
        return key;
    }

    private static void Fill(byte[] page, byte kind, List<byte[]> sortedKeys)
    {
        BTreeNode.Initialize(page, kind);
        foreach (var key in sortedKeys)
        {
            var cell = new byte[BTreeNode.CellHeaderSize + key.Length];
            if (kind == BTreeNode.LeafKind)
            {
                BTreeNode.WriteLeafCell(cell, key, 0);
            }
            else
            {
                BTreeNode.WriteBranchCell(cell, key, 7);
            }

            BTreeNode.AppendCell(page, cell);
        }
    }

    private static (int Index, bool Found) Linear(List<byte[]> sortedKeys, byte[] probe)
    {
        var index = sortedKeys.FindIndex(k => k.AsSpan().SequenceCompareTo(probe) >= 0);
        index = index < 0 ? sortedKeys.Count : index;
        return (index, index < sortedKeys.Count && sortedKeys[index].AsSpan().SequenceEqual(probe));
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
