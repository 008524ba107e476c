using BLite.Core.BTrees;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

internal sealed partial class HnswGraph
{
    /// <summary>
    /// Checks the graph's structure on a snapshot and adds what is wrong to
    /// <paramref name="problems"/>: the header agrees with the nodes, every link points at a live
    /// node present on that layer, no node exceeds its degree bound or links to itself, every edge
    /// has its reverse key and no reverse key lacks its edge, the document map agrees with the
    /// nodes, and every node is reachable from the entry point through links of any layer (a search
    /// enters layer 0 wherever its descent of the upper layers leads, so a region may be entered
    /// from above; no node may be cut off from all). Returns the indexed documents (primary key →
    /// node id) for the caller to compare with the collection.
    /// </summary>
    public Dictionary<byte[], uint> Verify(IPageReader pages, List<string> problems)
    {
        var label = $"vector index '{Definition.Name}'";
        var documents = new Dictionary<byte[], uint>(ByteArrayComparer.Instance);
        HnswMeta meta;
        try
        {
            meta = ReadMeta(pages);
        }
        catch (BLiteCorruptionException ex)
        {
            problems.Add(ex.Message);
            return documents;
        }

        var layers = new Dictionary<uint, int>();
        var edges = new HashSet<(uint Source, uint Target, int Layer)>();
        var links = new Dictionary<uint, List<uint>>();
        var nodeCursor = _tree.Scan(pages, KeyRange.Prefix([HnswKeys.NodeSpace]));
        while (nodeCursor.MoveNext())
        {
            var id = HnswKeys.ReadNodeKey(nodeCursor.Key);
            var record = nodeCursor.ValueSpan;
            var view = new HnswNodeView(record, Definition.Dimensions);
            if (view.ExpectedLength() != record.Length)
            {
                problems.Add($"{label}: node {id} has a record of {record.Length} bytes; its lists need {view.ExpectedLength()}.");
                continue;
            }

            layers[id] = view.TopLayer;
            documents[view.PrimaryKey.ToArray()] = id;
            var reachable = new List<uint>();
            links[id] = reachable;
            for (var layer = 0; layer <= view.TopLayer; layer++)
            {
                var list = view.Links(layer);
                var count = list.Length / sizeof(uint);
                if (count > MaxLinks(layer))
                {
                    problems.Add($"{label}: node {id} has {count} links on layer {layer}; the bound is {MaxLinks(layer)}.");
                }

                for (var i = 0; i < count; i++)
                {
                    var target = HnswNodeView.LinkAt(list, i);
                    if (target == id)
                    {
                        problems.Add($"{label}: node {id} links to itself on layer {layer}.");
                    }

                    if (!edges.Add((id, target, layer)))
                    {
                        problems.Add($"{label}: node {id} links twice to node {target} on layer {layer}.");
                    }

                    reachable.Add(target);
                }
            }
        }

        foreach (var (source, target, layer) in edges)
        {
            if (!layers.TryGetValue(target, out var targetTop))
            {
                problems.Add($"{label}: node {source} links on layer {layer} to node {target}, which was deleted.");
            }
            else if (targetTop < layer)
            {
                problems.Add($"{label}: node {source} links on layer {layer} to node {target}, which only reaches layer {targetTop}.");
            }
        }

        var reverseCount = 0;
        var reverseCursor = _tree.Scan(pages, KeyRange.Prefix([HnswKeys.ReverseSpace]));
        while (reverseCursor.MoveNext())
        {
            var key = reverseCursor.Key;
            var target = HnswKeys.ReadNodeKey(key);
            var edge = (HnswKeys.ReadReverseSource(key), target, (int)key[5]);
            reverseCount++;
            if (!edges.Contains(edge))
            {
                problems.Add($"{label}: a reverse key records the edge {edge.Item1}→{target} on layer {edge.Item3}, which does not exist.");
            }
        }

        if (reverseCount != edges.Count)
        {
            problems.Add($"{label}: {edges.Count} edges but {reverseCount} reverse keys.");
        }

        var mapped = 0;
        var mapCursor = _tree.Scan(pages, KeyRange.Prefix([HnswKeys.DocumentSpace]));
        while (mapCursor.MoveNext())
        {
            mapped++;
            var primaryKey = mapCursor.Key[1..].ToArray();
            var node = BitConverter.ToUInt32(mapCursor.ValueSpan);
            if (!documents.TryGetValue(primaryKey, out var expected) || expected != node)
            {
                problems.Add($"{label}: the document map sends a primary key to node {node}, which holds another document.");
            }
        }

        if (mapped != layers.Count || meta.Count != layers.Count)
        {
            problems.Add($"{label}: the header counts {meta.Count} nodes, the document map {mapped}, the graph holds {layers.Count}.");
        }

        if (layers.Count > 0)
        {
            if (!layers.TryGetValue(meta.EntryNode, out var entryTop))
            {
                problems.Add($"{label}: the entry point {meta.EntryNode} is not a node.");
                return documents;
            }

            if (entryTop != meta.TopLayer)
            {
                problems.Add($"{label}: the header's top layer {meta.TopLayer} is not the entry point's ({entryTop}).");
            }

            var reached = new HashSet<uint> { meta.EntryNode };
            var queue = new Queue<uint>();
            queue.Enqueue(meta.EntryNode);
            while (queue.TryDequeue(out var node))
            {
                if (links.TryGetValue(node, out var next))
                {
                    foreach (var target in next)
                    {
                        if (reached.Add(target))
                        {
                            queue.Enqueue(target);
                        }
                    }
                }
            }

            if (reached.Count != layers.Count)
            {
                problems.Add($"{label}: {layers.Count - reached.Count} of {layers.Count} nodes cannot be reached from the entry point.");
            }
        }

        return documents;
    }
}
