using BLite.Core.Storage;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    /// <summary>Frees every page of the tree, overflow chains and root included. The handle is unusable afterwards.</summary>
    public void Drop(IPageWriter pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        DropSubtree(pages, RootPageId, 0);
    }

    private static void DropSubtree(IPageWriter pages, uint pageId, int depth)
    {
        if (depth >= MaxDepth)
            throw TooDeep();
        var page = pages.ReadPage(pageId).Span;
        var kind = BTreeNode.Kind(page);
        var count = BTreeNode.Count(page);
        if (kind == BTreeNode.LeafKind)
        {
            for (var i = 0; i < count; i++)
            {
                var chain = BTreeNode.CellOverflowPage(BTreeNode.Cell(page, i));
                if (chain != 0)
                    OverflowChain.Free(pages, chain);
            }
        }
        else if (kind == BTreeNode.BranchKind)
        {
            for (var i = 0; i <= count; i++)
                DropSubtree(pages, BTreeNode.Child(page, i), depth + 1);
        }
        else
        {
            ThrowNotANode(pageId, kind);
        }
        pages.FreePage(pageId);
    }
}
