using System.Buffers.Binary;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

public sealed class BTreeVerifierTests
{
    [Fact]
    public void A_healthy_tree_reports_no_problems_and_owns_exactly_its_live_pages()
    {
        var (pages, tree) = BuildTree();

        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);

        Assert.True(verification.IsValid);
        Assert.Equal(pages.LivePages.OrderBy(p => p), verification.OwnedPages.OrderBy(p => p));
        verification.ThrowIfInvalid("test.blite");
    }

    [Fact]
    public void Swapped_keys_in_a_leaf_are_reported_as_out_of_order()
    {
        var (pages, tree) = BuildTree();
        var leaf = FirstLeaf(pages, tree.RootPageId);
        var page = pages.WritePage(leaf).Span;
        // Swap the first two slot entries: both keys stay valid, their order does not.
        var first = BinaryPrimitives.ReadUInt16LittleEndian(page[16..]);
        var second = BinaryPrimitives.ReadUInt16LittleEndian(page[18..]);
        BinaryPrimitives.WriteUInt16LittleEndian(page[16..], second);
        BinaryPrimitives.WriteUInt16LittleEndian(page[18..], first);

        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);

        Assert.Contains(verification.Problems, p => p.Contains("not in ascending order"));
        var exception = Assert.Throws<BLiteCorruptionException>(() => verification.ThrowIfInvalid("test.blite"));
        Assert.Equal("test.blite", exception.FilePath);
    }

    [Fact]
    public void A_broken_sibling_link_is_reported()
    {
        var (pages, tree) = BuildTree();
        var leaf = FirstLeaf(pages, tree.RootPageId);
        BinaryPrimitives.WriteUInt32LittleEndian(pages.WritePage(leaf).Span[12..], 0);

        var problems = BTreeVerifier.Verify(pages, tree.RootPageId).Problems;

        Assert.Contains(problems, p => p.Contains($"leaf {leaf} links forward to 0"));
    }

    [Fact]
    public void A_child_reached_twice_is_reported()
    {
        var (pages, tree) = BuildTree();
        var root = pages.WritePage(tree.RootPageId).Span;
        var leftmost = BinaryPrimitives.ReadUInt32LittleEndian(root[8..]);
        var firstCell = BinaryPrimitives.ReadUInt16LittleEndian(root[16..]);
        BinaryPrimitives.WriteUInt32LittleEndian(root[(firstCell + 2)..], leftmost);

        var problems = BTreeVerifier.Verify(pages, tree.RootPageId).Problems;

        Assert.Contains(problems, p => p.Contains($"page {leftmost} is reached more than once"));
    }

    [Fact]
    public void A_truncated_overflow_chain_is_reported()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        tree.Insert(pages, TestKeys.Int(1), TestKeys.Value(5000, 1));
        var root = pages.ReadPage(tree.RootPageId).Span;
        var cell = BinaryPrimitives.ReadUInt16LittleEndian(root[16..]);
        var keyLength = BinaryPrimitives.ReadUInt16LittleEndian(root[cell..]);
        var firstOverflow = BinaryPrimitives.ReadUInt32LittleEndian(root[(cell + 6 + keyLength)..]);
        BinaryPrimitives.WriteUInt32LittleEndian(pages.WritePage(firstOverflow).Span[4..], 0);

        var problems = BTreeVerifier.Verify(pages, tree.RootPageId).Problems;

        Assert.Contains(problems, p => p.Contains("holds 500 bytes, its cell records 5000"));
        Assert.Throws<BLiteCorruptionException>(() => tree.TryGet(pages, TestKeys.Int(1), out _));
    }

    [Fact]
    public void A_page_that_is_not_a_node_is_reported_and_reads_throw_corruption()
    {
        var (pages, tree) = BuildTree();
        var leaf = FirstLeaf(pages, tree.RootPageId);
        pages.WritePage(leaf).Span[0] = 0x77;

        Assert.Contains(BTreeVerifier.Verify(pages, tree.RootPageId).Problems, p => p.Contains("kind 0x77"));
        Assert.Throws<BLiteCorruptionException>(() => tree.TryGet(pages, TestKeys.Int(0), out _));
    }

    private static (InMemoryPages Pages, BTree Tree) BuildTree()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 300; i++)
            tree.Insert(pages, TestKeys.Int(i), TestKeys.Value(i % 50 == 0 ? 900 : 8, i));
        pages.Commit();
        return (pages, tree);
    }

    private static uint FirstLeaf(InMemoryPages pages, uint root)
    {
        var pageId = root;
        while (pages.ReadPage(pageId).Span[0] == 0x11)
            pageId = BinaryPrimitives.ReadUInt32LittleEndian(pages.ReadPage(pageId).Span[8..]);
        return pageId;
    }
}
