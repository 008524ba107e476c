using BLite.Core.BTrees;
using BLite.Core.Storage;
using static BLite.Core.Tests.BTrees.FingerChecks;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// What only the join's path finger does (the lookups both fingers share are in
/// <see cref="BTreeFingerTests"/>): trees of several branch levels grown by splits, repeated keys
/// and keys between leaves, pages read through a scratch buffer, and a seek followed by the leaf
/// links walking the entries a cursor walks.
/// </summary>
public sealed class BTreePathFingerTests
{
    private static void AssertSameAsDescent(InMemoryPages pages, BTree tree, IEnumerable<long> probes, IPageReader? fingerPages = null) =>
        FingerChecks.AssertSameAsDescent(pages, tree, probes, new BTreePathFinger(tree, fingerPages ?? pages).TryGet);

    [Fact]
    public void A_tree_of_several_branch_levels_grown_by_splits_answers_like_a_descent()
    {
        // Small pages and keys inserted in a shuffled order: the tree grows by splits at every
        // level, so probes climb to different heights of the recorded path.
        var pages = new InMemoryPages(pagePayloadSize: 256);
        var tree = BTree.Create(pages);
        var random = new Random(21);
        const int keys = 3 * Keys;
        foreach (var i in Enumerable.Range(0, keys).OrderBy(_ => random.Next()))
        {
            Assert.True(tree.Insert(pages, TestKeys.Int(i * 3), TestKeys.Value(8, i)));
        }

        Assert.True(Depth(pages, tree) >= 4, "the tree should have at least three branch levels");
        AssertSameAsDescent(pages, tree, Enumerable.Range(-2, (keys * 3) + 4).Select(i => (long)i));
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 400).Select(i => (long)random.Next(-5, (keys * 3) + 5)).Order());
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 400).Select(i => (long)random.Next(-5, (keys * 3) + 5)));
    }

    [Fact]
    public void Repeated_keys_and_keys_between_leaves_match_a_descent()
    {
        var (pages, tree) = EvenKeys();
        // Every key twice in a row, and the odd keys between two stored ones (absent, some of
        // them just past a leaf's last key and before the next leaf's first).
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, Keys).SelectMany(i => new long[] { i * 2, i * 2, (i * 2) + 1, i * 2 }));
    }

    [Fact]
    public void A_seek_then_the_leaf_links_walk_what_a_cursor_walks()
    {
        var (pages, tree) = EvenKeys();
        var finger = new BTreePathFinger(tree, pages);
        foreach (var (from, count) in new[] { (-5L, 40), (101L, 300), (700L, 1), (3990L, 50), (4100L, 5), (10L, 3) })
        {
            var expected = new List<string>();
            var cursor = tree.Scan(pages, KeyRange.From(TestKeys.Int(from)), descending: false);
            while (expected.Count < count && cursor.MoveNext())
            {
                expected.Add(Convert.ToHexString(cursor.Key));
            }

            var walked = new List<string>();
            var leaf = finger.Seek(TestKeys.Int(from), out var index, out _);
            while (walked.Count < count)
            {
                if (index >= BTreeNode.Count(leaf.Span))
                {
                    if (!finger.NextLeaf(out leaf))
                    {
                        break;
                    }

                    index = 0;
                    continue;
                }

                walked.Add(Convert.ToHexString(BTreeNode.Key(leaf.Span, index++)));
            }

            Assert.Equal(expected, walked);
        }
    }

    [Fact]
    public void A_lookup_after_walking_the_links_finds_keys_behind_and_ahead()
    {
        var (pages, tree) = EvenKeys();
        var finger = new BTreePathFinger(tree, pages);
        finger.Seek(TestKeys.Int(0), out _, out _);
        var hops = 0;
        while (hops < 5 && finger.NextLeaf(out _))
        {
            hops++;
        }

        Assert.Equal(5, hops);
        foreach (var probe in new long[] { 2, 3998, 600, 601, 0, (Keys * 2) - 2 })
        {
            var key = TestKeys.Int(probe);
            Assert.Equal(tree.TryGet(pages, key, out var expected), finger.TryGet(key, out var value));
            Assert.Equal(expected.ToArray(), value.ToArray());
        }
    }

    [Fact]
    public void A_finger_whose_pages_land_in_a_scratch_buffer_answers_like_a_descent()
    {
        // As the engine does when its cache is full: every transient read overwrites one scratch
        // page, so the finger must keep copies of its path's separators, not views of the pages.
        var pages = new InMemoryPages(pagePayloadSize: 256);
        var tree = BTree.Create(pages);
        var random = new Random(8);
        foreach (var i in Enumerable.Range(0, 3 * Keys).OrderBy(_ => random.Next()))
        {
            Assert.True(tree.Insert(pages, TestKeys.Int(i * 3), TestKeys.Value(8, i)));
        }

        var scratchPages = new ScratchPages(pages);
        AssertSameAsDescent(pages, tree, Enumerable.Range(-2, 9 * Keys).Select(i => (long)i), scratchPages);
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 500).Select(_ => (long)random.Next(-5, 9 * Keys)).Order(), scratchPages);
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 500).Select(_ => (long)random.Next(-5, 9 * Keys)), scratchPages);
        Assert.True(scratchPages.TransientReads > 1000, "the finger should have read through the scratch");
    }

    /// <summary>Pages whose transient reads are copied into the caller's scratch, as an engine with a full cache returns them.</summary>
    private sealed class ScratchPages(InMemoryPages pages) : IPageReader
    {
        public int TransientReads { get; private set; }

        public int PagePayloadSize => pages.PagePayloadSize;

        public ReadOnlyMemory<byte> ReadPage(uint pageId) => pages.ReadPage(pageId);

        public ReadOnlyMemory<byte> ReadPageTransient(uint pageId, ref byte[]? scratch)
        {
            TransientReads++;
            scratch ??= new byte[pages.PagePayloadSize];
            pages.ReadPage(pageId).CopyTo(scratch);
            return scratch;
        }
    }

    private static int Depth(InMemoryPages pages, BTree tree)
    {
        var depth = 1;
        var page = pages.ReadPage(tree.RootPageId);
        while (!BTreeNode.IsLeaf(page.Span))
        {
            page = pages.ReadPage(BTreeNode.Child(page.Span, 0));
            depth++;
        }

        return depth;
    }
}
