using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Tests.BTrees;

/// <summary>A finger's point lookup, whichever kind (<see cref="BTreeFinger"/> or <see cref="BTreePathFinger"/>).</summary>
internal delegate bool FingerLookup(ReadOnlySpan<byte> key, out ReadOnlyMemory<byte> value);

/// <summary>What the finger tests share: a tree of even keys, and the check that a finger answers as a descent from the root does.</summary>
internal static class FingerChecks
{
    public const int Keys = 2000;

    public static FingerLookup Open(bool path, BTree tree, IPageReader pages) =>
        path ? new BTreePathFinger(tree, pages).TryGet : new BTreeFinger(tree, pages).TryGet;

    public static (InMemoryPages Pages, BTree Tree) EvenKeys()
    {
        var pages = new InMemoryPages(pagePayloadSize: 1024);
        var tree = BTree.Create(pages);
        for (var i = 0; i < Keys; i++)
        {
            Assert.True(tree.Insert(pages, TestKeys.Int(i * 2), TestKeys.Value(20 + (i % 40), i)));
        }

        return (pages, tree);
    }

    public static void AssertSameAsDescent(InMemoryPages pages, BTree tree, IEnumerable<long> probes, FingerLookup finger)
    {
        var found = 0;
        foreach (var probe in probes)
        {
            var key = TestKeys.Int(probe);
            var expected = tree.TryGet(pages, key, out var expectedValue);
            Assert.Equal(expected, finger(key, out var value));
            Assert.Equal(expectedValue.ToArray(), value.ToArray());
            found += expected ? 1 : 0;
        }

        Assert.True(found > 0, "no probe hit a key");
    }
}
