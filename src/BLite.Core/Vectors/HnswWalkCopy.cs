using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

/// <summary>
/// An in-memory, read-only copy of one committed version of an HNSW graph, laid out for the walk:
/// every vector in one contiguous array and every neighbour list as dense slot numbers, so
/// visiting a node is array arithmetic instead of a B+ tree descent per node. It holds the stored
/// float32 vectors unchanged and their 8-bit codes (<see cref="ScalarCodes"/>): a search walks the
/// codes and re-ranks what it found with the float32 vectors, or walks the float32 vectors and
/// then computes exactly the distances (and returns exactly the results) of the same search over
/// the pages. It belongs to one snapshot sequence of one engine and is never changed; a later
/// commit makes a new one (<see cref="HnswWalkCopies"/>).
/// </summary>
internal sealed partial class HnswWalkCopy
{
    private readonly float[] _vectors;
    private readonly ScalarCodes _codes;
    private readonly byte[][] _keys;
    private readonly int[] _levelZeroStart;
    private readonly int[] _levelZeroLinks;

    /// <summary>Per slot, the upper layers' lists (count, then slots, for layers 1..top), or null for a layer-0-only node.</summary>
    private readonly int[]?[] _upperLinks;

    private HnswWalkCopy(long snapshot, int dimensions, VectorMetric metric, float[] vectors, byte[][] keys, int[] levelZeroStart, int[] levelZeroLinks, int[]?[] upperLinks, int entrySlot, int topLayer)
    {
        Snapshot = snapshot;
        _dimensions = dimensions;
        _metric = metric;
        _vectors = vectors;
        _codes = ScalarCodes.Build(vectors, keys.Length, dimensions, metric);
        _keys = keys;
        _levelZeroStart = levelZeroStart;
        _levelZeroLinks = levelZeroLinks;
        _upperLinks = upperLinks;
        _entrySlot = entrySlot;
        _topLayer = topLayer;
    }

    private readonly int _dimensions;
    private readonly VectorMetric _metric;
    private readonly int _entrySlot;
    private readonly int _topLayer;

    /// <summary>The engine's snapshot sequence this copy was read at.</summary>
    public long Snapshot { get; }

    public int Count => _keys.Length;

    /// <summary>Memory held by the vectors, their codes and the links (keys not counted).</summary>
    public long Bytes => ((long)_vectors.Length * sizeof(float)) + _codes.Bytes + ((long)(_levelZeroLinks.Length + _levelZeroStart.Length) * sizeof(int));

    /// <summary>Reads the whole graph of <paramref name="pages"/> (one ordered scan of its node records).</summary>
    public static HnswWalkCopy Build(BTree tree, IPageReader pages, HnswMeta meta, VectorIndexDefinition definition, long snapshot)
    {
        var dimensions = definition.Dimensions;
        var count = checked((int)meta.Count);
        var slotOf = new int[meta.NextNodeId];
        Array.Fill(slotOf, -1);
        var vectors = new float[checked(count * dimensions)];
        var keys = new byte[count][];
        var rawLinks = new List<uint[]>[count];
        var slot = 0;
        var cursor = tree.Scan(pages, KeyRange.Prefix([HnswKeys.NodeSpace]));
        while (cursor.MoveNext())
        {
            if (slot == count)
            {
                throw new BLiteCorruptionException(BTree.CorruptionSource, tree.RootPageId, $"vector index '{definition.Name}' holds more node records than its header counts ({count}).");
            }

            var view = new HnswNodeView(cursor.ValueSpan, dimensions);
            slotOf[HnswKeys.ReadNodeKey(cursor.Key)] = slot;
            view.Vector.CopyTo(vectors.AsSpan(slot * dimensions, dimensions));
            keys[slot] = view.PrimaryKey.ToArray();
            var layers = new List<uint[]>(view.TopLayer + 1);
            for (var layer = 0; layer <= view.TopLayer; layer++)
            {
                var links = view.Links(layer);
                var ids = new uint[links.Length / sizeof(uint)];
                for (var i = 0; i < ids.Length; i++)
                {
                    ids[i] = HnswNodeView.LinkAt(links, i);
                }

                layers.Add(ids);
            }

            rawLinks[slot++] = layers;
        }

        if (slot != count)
        {
            throw new BLiteCorruptionException(BTree.CorruptionSource, tree.RootPageId, $"vector index '{definition.Name}' holds {slot} node records, its header counts {count}.");
        }

        var levelZeroStart = new int[count + 1];
        var levelZeroLength = 0;
        for (var i = 0; i < count; i++)
        {
            levelZeroStart[i] = levelZeroLength;
            levelZeroLength += rawLinks[i][0].Length;
        }

        levelZeroStart[count] = levelZeroLength;
        var levelZeroLinks = new int[levelZeroLength];
        var upperLinks = new int[]?[count];
        for (var i = 0; i < count; i++)
        {
            var layers = rawLinks[i];
            var at = levelZeroStart[i];
            foreach (var id in layers[0])
            {
                levelZeroLinks[at++] = SlotOf(slotOf, id, tree, definition);
            }

            if (layers.Count > 1)
            {
                var upper = new List<int>();
                for (var layer = 1; layer < layers.Count; layer++)
                {
                    upper.Add(layers[layer].Length);
                    foreach (var id in layers[layer])
                    {
                        upper.Add(SlotOf(slotOf, id, tree, definition));
                    }
                }

                upperLinks[i] = [.. upper];
            }
        }

        return new HnswWalkCopy(snapshot, dimensions, definition.Metric, vectors, keys, levelZeroStart, levelZeroLinks, upperLinks, count == 0 ? -1 : SlotOf(slotOf, meta.EntryNode, tree, definition), meta.TopLayer);
    }

    private static int SlotOf(int[] slotOf, uint nodeId, BTree tree, VectorIndexDefinition definition) =>
        nodeId < slotOf.Length && slotOf[nodeId] >= 0
            ? slotOf[nodeId]
            : throw new BLiteCorruptionException(BTree.CorruptionSource, tree.RootPageId, $"vector index '{definition.Name}' links to node {nodeId}, which it does not hold.");

    private ReadOnlySpan<float> VectorOf(int slot) => _vectors.AsSpan(slot * _dimensions, _dimensions);

    private ReadOnlySpan<int> LinksOf(int slot, int layer)
    {
        if (layer == 0)
        {
            return _levelZeroLinks.AsSpan(_levelZeroStart[slot], _levelZeroStart[slot + 1] - _levelZeroStart[slot]);
        }

        var upper = _upperLinks[slot];
        if (upper is null)
        {
            return default;
        }

        var offset = 0;
        for (var i = 1; i < layer; i++)
        {
            if (offset >= upper.Length)
            {
                return default;
            }

            offset += 1 + upper[offset];
        }

        return offset >= upper.Length ? default : upper.AsSpan(offset + 1, upper[offset]);
    }
}
