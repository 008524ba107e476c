using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// A finger answers point lookups exactly as a descent from the root would, in any key order:
/// keys in the last leaf, in either neighbour, several leaves away, or absent.
/// </summary>
public sealed class BTreeFingerTests
{
    private const int Keys = 2000;

    private static (InMemoryPages Pages, BTree Tree) EvenKeys()
    {
        var pages = new InMemoryPages(pagePayloadSize: 1024);
        var tree = BTree.Create(pages);
        for (var i = 0; i < Keys; i++)
        {
            Assert.True(tree.Insert(pages, TestKeys.Int(i * 2), TestKeys.Value(20 + (i % 40), i)));
        }

        return (pages, tree);
    }

    private static void AssertSameAsDescent(InMemoryPages pages, BTree tree, IEnumerable<long> probes)
    {
        var finger = new BTreeFinger(tree, pages);
        var found = 0;
        foreach (var probe in probes)
        {
            var key = TestKeys.Int(probe);
            var expected = tree.TryGet(pages, key, out var expectedValue);
            Assert.Equal(expected, finger.TryGet(key, out var value));
            Assert.Equal(expectedValue.ToArray(), value.ToArray());
            found += expected ? 1 : 0;
        }

        Assert.True(found > 0, "no probe hit a key");
    }

    [Fact]
    public void Ascending_probes_with_gaps_and_misses_match_a_descent()
    {
        var (pages, tree) = EvenKeys();
        Assert.True(BTreeVerifier.Verify(pages, tree.RootPageId).OwnedPages.Count > 20, "the tree should span many leaves");

        AssertSameAsDescent(pages, tree, Enumerable.Range(-3, (Keys * 2) + 6).Select(i => (long)i));
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, Keys / 7).Select(i => (long)i * 14));
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, Keys / 97).Select(i => (long)i * 194));
    }

    [Fact]
    public void Descending_and_random_probes_match_a_descent()
    {
        var (pages, tree) = EvenKeys();

        AssertSameAsDescent(pages, tree, Enumerable.Range(-3, (Keys * 2) + 6).Reverse().Select(i => (long)i));
        var random = new Random(15);
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 3000).Select(_ => (long)random.Next(-10, (Keys * 2) + 10)));
    }

    [Fact]
    public void An_empty_tree_finds_nothing()
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);
        var finger = new BTreeFinger(tree, pages);

        Assert.False(finger.TryGet(TestKeys.Int(1), out _));
        Assert.False(finger.TryGet(TestKeys.Int(0), out _));
    }
}
