using System.Runtime.CompilerServices;
using BLite.Core.Storage;

namespace BLite.Core.BTrees;

internal sealed partial class BTree
{
    /// <summary>Which leaf a <see cref="Seek"/> lands on.</summary>
    internal enum SeekTarget
    {
        /// <summary>The leaf whose key range covers the key.</summary>
        Key,
        /// <summary>The leftmost leaf (smallest keys).</summary>
        First,
        /// <summary>The rightmost leaf (largest keys).</summary>
        Last,
    }

    /// <summary>The leaf whose key range covers <paramref name="key"/>.</summary>
    internal ReadOnlyMemory<byte> FindLeaf(IPageReader pages, ReadOnlySpan<byte> key) =>
        Seek(pages, RootPageId, SeekTarget.Key, key, default, default, out _);

    /// <summary>
    /// The leaf covering <paramref name="key"/> for a point read, which is done with it before its
    /// reader ends: the same checks as <see cref="Seek(IPageReader, uint, SeekTarget, ReadOnlySpan{byte}, Span{uint}, Span{int}, out int)"/>
    /// without a path or a scratch. Compiled on its own, so a caller that inlines the rest of a
    /// lookup keeps its inlining budget for the slot accessors.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static ReadOnlySpan<byte> FindLeafSpan(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key)
    {
        var pageId = rootPageId;
        for (var level = 0; level < MaxDepth; level++)
        {
            var page = pages.ReadPageSpan(pageId);
            var kind = BTreeNode.Kind(page);
            if (kind == BTreeNode.LeafKind)
            {
                return page;
            }

            if (kind != BTreeNode.BranchKind)
            {
                ThrowNotANode(pageId, kind);
            }

            pageId = BTreeNode.Child(page, BTreeNode.ChildIndexFor(page, key));
        }

        throw TooDeep();
    }

    /// <summary>
    /// The one root-to-leaf descent every read and write shares. It checks each page is a node
    /// and stops after <see cref="MaxDepth"/> levels, so a corrupt tree (wrong page kind or a
    /// cycle) fails the same way whichever operation meets it. When <paramref name="pathPages"/>
    /// is not empty, each visited page and the child index taken to reach it are recorded there
    /// (both need <see cref="MaxDepth"/> entries) for a write to walk back up.
    /// </summary>
    /// <returns>The leaf; <paramref name="leafLevel"/> is its depth (0 = root).</returns>
    internal static ReadOnlyMemory<byte> Seek(
        IPageReader pages, uint rootPageId, SeekTarget target, ReadOnlySpan<byte> key,
        Span<uint> pathPages, Span<int> pathChildIndexes, out int leafLevel)
    {
        byte[]? noScratch = null;
        return Seek(pages, rootPageId, target, key, pathPages, pathChildIndexes, out leafLevel, ref noScratch, transient: false);
    }

    /// <summary>
    /// The leaf covering <paramref name="key"/>, every page on the way read with
    /// <see cref="IPageReader.ReadPageTransient"/> into <paramref name="scratch"/>: the leaf is
    /// valid until the caller's next read with the same scratch.
    /// </summary>
    internal static ReadOnlyMemory<byte> SeekTransient(IPageReader pages, uint rootPageId, ReadOnlySpan<byte> key, ref byte[]? scratch) =>
        Seek(pages, rootPageId, SeekTarget.Key, key, default, default, out _, ref scratch, transient: true);

    private static ReadOnlyMemory<byte> Seek(
        IPageReader pages, uint rootPageId, SeekTarget target, ReadOnlySpan<byte> key,
        Span<uint> pathPages, Span<int> pathChildIndexes, out int leafLevel, ref byte[]? scratch, bool transient)
    {
        var recordPath = !pathPages.IsEmpty;
        if (recordPath)
            pathChildIndexes[0] = 0;
        var pageId = rootPageId;
        for (var level = 0; level < MaxDepth; level++)
        {
            if (recordPath)
                pathPages[level] = pageId;
            // A branch read into the scratch is done with once its child id is taken, so the
            // child may overwrite it.
            var memory = transient ? pages.ReadPageTransient(pageId, ref scratch) : pages.ReadPage(pageId);
            var page = memory.Span;
            var kind = BTreeNode.Kind(page);
            if (kind == BTreeNode.LeafKind)
            {
                leafLevel = level;
                return memory;
            }
            if (kind != BTreeNode.BranchKind)
                ThrowNotANode(pageId, kind);
            var childIndex = target switch
            {
                SeekTarget.First => 0,
                SeekTarget.Last => BTreeNode.Count(page),
                _ => BTreeNode.ChildIndexFor(page, key),
            };
            if (recordPath)
                pathChildIndexes[level + 1] = childIndex;
            pageId = BTreeNode.Child(page, childIndex);
        }
        throw TooDeep();
    }
}
