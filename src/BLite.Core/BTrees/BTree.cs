using System.Buffers;
using System.Runtime.CompilerServices;
using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// A B+ tree over memcmp-ordered byte keys with values of any size, stored in pages. The
/// handle only remembers the root page id, which never changes over the tree's life (a root
/// split moves the root's content into new children), so the id can be anchored in a catalog
/// once. Every change goes through the <see cref="IPageWriter"/> of the caller's transaction,
/// so commit and rollback cover the tree like any other page. Page layout: <see cref="BTreeNode"/>
/// and docs/format.md section 4.
/// </summary>
internal sealed partial class BTree
{
    /// <summary>Deeper than any tree of 2^32 pages with two or more children per branch; more means a cycle.</summary>
    internal const int MaxDepth = 40;
    internal const int MinPagePayloadSize = 256;
    internal const int MaxPagePayloadSize = 65535;
    internal const string CorruptionSource = OverflowChain.CorruptionSource;

    private BTree(uint rootPageId) => RootPageId = rootPageId;

    public uint RootPageId { get; }

    /// <summary>Creates an empty tree (one empty leaf, the root) in the caller's transaction.</summary>
    public static BTree Create(IPageWriter pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        CheckPayloadSize(pages.PagePayloadSize);
        var root = pages.AllocatePage();
        BTreeNode.Initialize(pages.WritePage(root).Span, BTreeNode.LeafKind);
        return new BTree(root);
    }

    /// <summary>A handle on a tree created earlier; nothing is read until it is used.</summary>
    public static BTree Open(uint rootPageId)
    {
        if (rootPageId == PageIds.Header)
            throw new ArgumentOutOfRangeException(nameof(rootPageId), "Page 0 is the file header, never a B+ tree root.");
        return new BTree(rootPageId);
    }

    /// <summary>The longest key a tree on pages of this payload size accepts (at least four entries fit in every node).</summary>
    public static int GetMaxKeySize(int pagePayloadSize) =>
        MaxCellSize(pagePayloadSize) - BTreeNode.CellHeaderSize - BTreeNode.OverflowReferenceSize;

    /// <inheritdoc cref="GetMaxKeySize(int)"/>
    public int MaxKeySize(int pagePayloadSize) => GetMaxKeySize(pagePayloadSize);

    /// <summary>Largest cell (header, key and inline value or overflow reference) so that four cells and their slots fit in a node.</summary>
    internal static int MaxCellSize(int pagePayloadSize) => (pagePayloadSize - BTreeNode.HeaderSize) / 4 - BTreeNode.SlotSize;

    /// <summary>A node whose cells and slots use less than this many bytes is merged or refilled from a sibling.</summary>
    internal static int UnderflowThreshold(int pagePayloadSize) => (pagePayloadSize - BTreeNode.HeaderSize) / 4;

    /// <summary>
    /// Looks a key up with one root-to-leaf descent. An inline value is returned as a slice of
    /// the page (no copy); only an overflow value is copied into a new array.
    /// </summary>
    public bool TryGet(IPageReader pages, ReadOnlySpan<byte> key, out ReadOnlyMemory<byte> value)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var leaf = FindPointMemory(pages, RootPageId, key, out var index, out var found);
        value = found ? ReadValue(pages, leaf, index) : default;
        return found;
    }

    /// <summary>
    /// Looks a key up and hands its value to <paramref name="read"/> without keeping a copy: an
    /// inline value is passed as a slice of the page, an overflow value is assembled in a pooled
    /// buffer that is returned once <paramref name="read"/> is done, so the span must not escape it.
    /// </summary>
    public bool TryRead<TState, TResult>(IPageReader pages, ReadOnlySpan<byte> key, TState state, Func<ReadOnlySpan<byte>, TState, TResult> read, out TResult result)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(read);
        var page = FindPoint(pages, RootPageId, key, out var index, out var found);
        if (!found)
        {
            result = default!;
            return false;
        }

        var length = BTreeNode.ValueLength(page, index, out var overflow);
        if (!overflow)
        {
            result = read(page.Slice(BTreeNode.ValueOffset(page, index), length), state);
            return true;
        }

        result = ReadOverflow(pages, BTreeNode.OverflowPage(page, index), length, state, read);
        return true;
    }

    // Out of line: its pooled buffer and try/finally would otherwise take the JIT's inlining
    // budget of every point read, leaving the span and slot accessors above as calls.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static TResult ReadOverflow<TState, TResult>(IPageReader pages, uint firstPage, int length, TState state, Func<ReadOnlySpan<byte>, TState, TResult> read)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            var value = buffer.AsSpan(0, length);
            OverflowChain.Read(pages, firstPage, value);
            return read(value, state);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Whether the tree holds <paramref name="key"/>; never copies a value.</summary>
    public bool ContainsKey(IPageReader pages, ReadOnlySpan<byte> key)
    {
        ArgumentNullException.ThrowIfNull(pages);
        FindPoint(pages, RootPageId, key, out _, out var found);
        return found;
    }

    /// <summary>
    /// A cursor over the keys in <paramref name="range"/>, ascending or descending. The cursor
    /// reads through <paramref name="pages"/> lazily; do not change the tree while using it.
    /// A <paramref name="transient"/> cursor's entries are valid only until its next move (see
    /// <see cref="BTreeCursor"/>): for walks that may cover more leaves than the cache holds.
    /// </summary>
    public BTreeCursor Scan(IPageReader pages, KeyRange range, bool descending = false, bool transient = false)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(range);
        return new BTreeCursor(pages, RootPageId, range, descending, transient);
    }

    internal static ReadOnlyMemory<byte> ReadValue(IPageReader pages, ReadOnlyMemory<byte> leaf, int index)
    {
        var page = leaf.Span;
        var length = BTreeNode.ValueLength(page, index, out var overflow);
        return overflow
            ? OverflowChain.Read(pages, BTreeNode.OverflowPage(page, index), length)
            : leaf.Slice(BTreeNode.ValueOffset(page, index), length);
    }

    private static void CheckPayloadSize(int payloadSize)
    {
        if (payloadSize is < MinPagePayloadSize or > MaxPagePayloadSize)
            throw new ArgumentOutOfRangeException(nameof(payloadSize), payloadSize,
                $"B+ tree pages need a payload of {MinPagePayloadSize}..{MaxPagePayloadSize} bytes.");
    }

    internal static void ThrowNotANode(uint pageId, byte kind) =>
        throw new BLiteCorruptionException(CorruptionSource, pageId, $"expected a B+ tree node, found page kind 0x{kind:X2}.");

    private static BLiteCorruptionException TooDeep() =>
        new(CorruptionSource, null, $"B+ tree is deeper than {MaxDepth} levels; its pages form a cycle.");
}
