using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

/// <summary>
/// A hierarchical navigable small-world graph (Malkov and Yashunin, 2016) kept in one B+ tree
/// (<see cref="HnswKeys"/>), so every change is a page change of the caller's transaction: it is
/// logged, crash-safe and rolled back with the transaction, and a reader searches the graph as
/// of its snapshot. Nodes are removed for real on delete (their neighbours are re-linked), never
/// left as tombstones. See docs/vector.md.
/// </summary>
internal sealed partial class HnswGraph
{
    /// <summary>Highest layer a node may reach; with M ≥ 2 a higher draw has probability below 2^-16.</summary>
    public const int MaxLayer = 16;

    private readonly BTree _tree;

    public HnswGraph(uint rootPageId, VectorIndexDefinition definition)
    {
        if (!BitConverter.IsLittleEndian)
        {
            throw new PlatformNotSupportedException("Vector indexes store float32 components in little-endian order; this machine is big-endian.");
        }

        _tree = BTree.Open(rootPageId);
        Definition = definition;
    }

    public VectorIndexDefinition Definition { get; }

    public uint RootPageId => _tree.RootPageId;

    /// <summary>Creates the empty graph's tree in the caller's transaction and returns its root page.</summary>
    public static uint Create(IPageWriter pages)
    {
        var tree = BTree.Create(pages);
        Span<byte> meta = stackalloc byte[HnswKeys.MetaSize];
        HnswMeta.Empty.Write(meta);
        tree.Insert(pages, HnswKeys.MetaKey, meta);
        return tree.RootPageId;
    }

    public void Drop(IPageWriter pages) => _tree.Drop(pages);

    /// <summary>How many nodes (indexed documents) the graph holds.</summary>
    public long Count(IPageReader pages) => ReadMeta(pages).Count;

    /// <summary>The node id of the document with <paramref name="primaryKey"/>, or 0.</summary>
    public uint FindNode(IPageReader pages, ReadOnlySpan<byte> primaryKey)
    {
        var key = HnswKeys.DocumentKey(primaryKey);
        return _tree.TryGet(pages, key, out var value) ? BitConverter.ToUInt32(value.Span) : 0;
    }

    /// <summary>The vector node <paramref name="nodeId"/> holds (as searched: normalized for cosine), or null when there is no such node.</summary>
    public float[]? FindNodeVector(IPageReader pages, uint nodeId) =>
        TryReadNode(pages, nodeId, out var record) ? new HnswNodeView(record.Span, Definition.Dimensions).Vector.ToArray() : null;

    internal HnswMeta ReadMeta(IPageReader pages)
    {
        if (!_tree.TryGet(pages, HnswKeys.MetaKey, out var value) || value.Length != HnswKeys.MetaSize)
        {
            throw new BLiteCorruptionException(BTree.CorruptionSource, _tree.RootPageId, $"vector index '{Definition.Name}' has no valid header record.");
        }

        return HnswMeta.Read(value.Span);
    }

    private void WriteMeta(IPageWriter pages, HnswMeta meta)
    {
        Span<byte> value = stackalloc byte[HnswKeys.MetaSize];
        meta.Write(value);
        _tree.Upsert(pages, HnswKeys.MetaKey, value);
    }

    /// <summary>The node record, as a slice of its page (or a copy when it overflowed a page).</summary>
    private bool TryReadNode(IPageReader pages, uint nodeId, out ReadOnlyMemory<byte> record)
    {
        Span<byte> key = stackalloc byte[HnswKeys.NodeKeySize];
        HnswKeys.WriteNodeKey(key, nodeId);
        return _tree.TryGet(pages, key, out record);
    }

    private ReadOnlyMemory<byte> ReadNode(IPageReader pages, uint nodeId)
    {
        if (!TryReadNode(pages, nodeId, out var record))
        {
            throw new BLiteCorruptionException(BTree.CorruptionSource, _tree.RootPageId, $"vector index '{Definition.Name}' links to node {nodeId}, which it does not hold.");
        }

        return record;
    }

    private int MaxLinks(int layer) => layer == 0 ? 2 * Definition.M : Definition.M;

    /// <summary>
    /// The node's top layer: floor(−ln(u) / ln(M)) for a u in (0, 1] drawn from a hash of the node
    /// id, so a rebuild from the same history yields the same graph.
    /// </summary>
    private int DrawLayer(uint nodeId)
    {
        var hash = (ulong)nodeId + 0x9E3779B97F4A7C15UL;
        hash = (hash ^ (hash >> 30)) * 0xBF58476D1CE4E5B9UL;
        hash = (hash ^ (hash >> 27)) * 0x94D049BB133111EBUL;
        hash ^= hash >> 31;
        var uniform = ((hash >> 11) + 1) * (1.0 / (1UL << 53));
        var layer = (int)(-Math.Log(uniform) / Math.Log(Definition.M));
        return Math.Min(layer, MaxLayer);
    }
}
