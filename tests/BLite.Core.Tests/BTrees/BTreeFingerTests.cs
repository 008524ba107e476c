using BLite.Core.BTrees;
using static BLite.Core.Tests.BTrees.FingerChecks;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// Both fingers (the leaf finger of index-order reads, and the join's path finger) answer point
/// lookups exactly as a descent from the root would, in any key order: keys in the last leaf, in
/// either neighbour, several leaves away, or absent.
/// </summary>
public sealed class BTreeFingerTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Ascending_probes_with_gaps_and_misses_match_a_descent(bool path)
    {
        var (pages, tree) = EvenKeys();
        Assert.True(BTreeVerifier.Verify(pages, tree.RootPageId).OwnedPages.Count > 20, "the tree should span many leaves");

        AssertSameAsDescent(pages, tree, Enumerable.Range(-3, (Keys * 2) + 6).Select(i => (long)i), Open(path, tree, pages));
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, Keys / 7).Select(i => (long)i * 14), Open(path, tree, pages));
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, Keys / 97).Select(i => (long)i * 194), Open(path, tree, pages));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Descending_and_random_probes_match_a_descent(bool path)
    {
        var (pages, tree) = EvenKeys();

        AssertSameAsDescent(pages, tree, Enumerable.Range(-3, (Keys * 2) + 6).Reverse().Select(i => (long)i), Open(path, tree, pages));
        var random = new Random(15);
        AssertSameAsDescent(pages, tree, Enumerable.Range(0, 3000).Select(_ => (long)random.Next(-10, (Keys * 2) + 10)), Open(path, tree, pages));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void An_empty_tree_finds_nothing(bool path)
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);
        var finger = Open(path, tree, pages);

        Assert.False(finger(TestKeys.Int(1), out _));
        Assert.False(finger(TestKeys.Int(0), out _));
    }
}
