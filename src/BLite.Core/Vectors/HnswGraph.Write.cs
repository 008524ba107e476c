using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

internal sealed partial class HnswGraph
{
    /// <summary>
    /// Adds a document's vector (prepared by <see cref="VectorDistance.Prepare"/>); the caller
    /// guarantees the document is not in the graph yet. The new node links to up to M neighbours
    /// per layer (chosen by the diversity heuristic), and each neighbour links back, pruning its
    /// own list to the bound when it overflows.
    /// </summary>
    public void Insert(IPageWriter pages, ReadOnlySpan<byte> primaryKey, ReadOnlySpan<float> vector)
    {
        var meta = ReadMeta(pages);
        var id = meta.NextNodeId;
        var layer = DrawLayer(id);
        var session = new WriteSession(this, pages);
        var node = new HnswNode(id, layer, primaryKey.ToArray(), vector.ToArray(), isNew: true) { IsDirty = true };
        session.Add(node);
        if (meta.Count == 0)
        {
            meta = meta with { EntryNode = id, TopLayer = layer };
        }
        else
        {
            var scratch = new SearchScratch();
            var reader = scratch.Memo.Begin(pages);
            var entry = meta.EntryNode;
            var entryDistance = Distance(vector, ReadNode(reader, entry).Span);
            for (var upper = meta.TopLayer; upper > layer; upper--)
            {
                (entry, entryDistance) = Greedy(reader, vector, entry, entryDistance, upper);
            }

            scratch.Entries.Add(new LayerHit(entry, entryDistance));
            for (var current = Math.Min(layer, meta.TopLayer); current >= 0; current--)
            {
                SearchLayer(pages, vector, Definition.EfConstruction, current, null, scratch);
                var selected = SelectNeighbours(session, scratch.Found, Definition.M);
                node.Links[current].AddRange(selected);
                node.IsDirty = true;
                foreach (var neighbour in selected)
                {
                    Link(session, neighbour, id, current);
                }

                // The next layer's search reads the tree, so it must see this layer's links.
                session.Flush();
                scratch.Entries.Clear();
                scratch.Entries.AddRange(scratch.Found);
            }

            if (layer > meta.TopLayer)
            {
                meta = meta with { EntryNode = id, TopLayer = layer };
            }
        }

        session.Flush();
        WriteMeta(pages, meta with { NextNodeId = checked(id + 1), Count = meta.Count + 1 });
        _tree.Insert(pages, HnswKeys.DocumentKey(primaryKey), BitConverter.GetBytes(id));
    }

    private List<uint> ReverseSources(IPageReader pages, uint target, int layer)
    {
        Span<byte> prefix = stackalloc byte[HnswKeys.ReversePrefixSize];
        HnswKeys.WriteReversePrefix(prefix, target, layer);
        var sources = new List<uint>();
        var cursor = _tree.Scan(pages, KeyRange.Prefix(prefix));
        while (cursor.MoveNext())
        {
            sources.Add(HnswKeys.ReadReverseSource(cursor.Key));
        }

        return sources;
    }

    /// <summary>Adds the edge node→target on a layer, pruning the node's list when it passes the bound.</summary>
    private void Link(WriteSession session, uint nodeId, uint target, int layer)
    {
        var node = session.Get(nodeId);
        var links = node.Links[layer];
        if (links.Contains(target))
        {
            return;
        }

        links.Add(target);
        node.IsDirty = true;
        if (links.Count <= MaxLinks(layer))
        {
            return;
        }

        var pool = new List<LayerHit>(links.Count);
        foreach (var candidate in links)
        {
            pool.Add(new LayerHit(candidate, Distance(node.Vector, session.Get(candidate).Vector)));
        }

        pool.Sort(static (a, b) => a.Distance.CompareTo(b.Distance));
        var chosen = SelectNeighbours(session, pool, MaxLinks(layer));
        KeepLastIncoming(session, nodeId, layer, pool, chosen);
        links.Clear();
        links.AddRange(chosen);
    }

    /// <summary>
    /// A candidate of <paramref name="pool"/> left out of <paramref name="chosen"/> whose only
    /// incoming link on the layer this was would become unreachable: it is kept in place of the
    /// farthest chosen one that other nodes also reach.
    /// </summary>
    private void KeepLastIncoming(WriteSession session, uint nodeId, int layer, List<LayerHit> pool, List<uint> chosen)
    {
        foreach (var candidate in pool)
        {
            if (chosen.Contains(candidate.Node) || InDegree(session, candidate.Node, layer, excluding: nodeId) > 0)
            {
                continue;
            }

            for (var i = chosen.Count - 1; i >= 0; i--)
            {
                if (InDegree(session, chosen[i], layer, excluding: nodeId) > 0)
                {
                    chosen[i] = candidate.Node;
                    break;
                }
            }
        }
    }

    /// <summary>Links into <paramref name="target"/> on a layer from nodes other than <paramref name="excluding"/>, counting this write's unflushed changes.</summary>
    private int InDegree(WriteSession session, uint target, int layer, uint excluding)
    {
        var count = 0;
        foreach (var source in ReverseSources(session.Pages, target, layer))
        {
            if (source != excluding && (!session.TryGetLoaded(source, out var loaded) || (!loaded.IsDeleted && loaded.Links[layer].Contains(target))))
            {
                count++;
            }
        }

        foreach (var loaded in session.Loaded)
        {
            if (loaded.Id != excluding && !loaded.IsDeleted && loaded.TopLayer >= layer && loaded.Links[layer].Contains(target)
                && Array.IndexOf(loaded.StoredLinks[layer], target) < 0)
            {
                count++;
            }
        }

        return count;
    }

    /// <summary>
    /// The diversity heuristic: walking candidates nearest first, keep one only if it is nearer to
    /// the base than to every neighbour already kept (so links spread in all directions instead of
    /// crowding one cluster); then top up with the nearest rejected ones, which keeps nodes in
    /// dense regions reachable. <paramref name="candidates"/> are sorted nearest first.
    /// </summary>
    private List<uint> SelectNeighbours(WriteSession session, List<LayerHit> candidates, int max)
    {
        var selected = new List<uint>(max);
        var selectedVectors = new List<float[]>(max);
        var rejected = new List<uint>();
        foreach (var candidate in candidates)
        {
            if (selected.Count >= max)
            {
                break;
            }

            var vector = session.Get(candidate.Node).Vector;
            var diverse = true;
            foreach (var kept in selectedVectors)
            {
                if (Distance(vector, kept) < candidate.Distance)
                {
                    diverse = false;
                    break;
                }
            }

            if (diverse)
            {
                selected.Add(candidate.Node);
                selectedVectors.Add(vector);
            }
            else
            {
                rejected.Add(candidate.Node);
            }
        }

        for (var i = 0; i < rejected.Count && selected.Count < max; i++)
        {
            selected.Add(rejected[i]);
        }

        return selected;
    }

    /// <summary>
    /// The nodes one write has loaded for change. <see cref="Flush"/> writes the changed ones back
    /// and adds or removes exactly the reverse-edge keys whose edges changed.
    /// </summary>
    private sealed class WriteSession(HnswGraph graph, IPageWriter pages)
    {
        private readonly Dictionary<uint, HnswNode> _nodes = [];

        public IPageWriter Pages => pages;

        public IEnumerable<HnswNode> Loaded => _nodes.Values;

        public bool TryGetLoaded(uint id, out HnswNode node) => _nodes.TryGetValue(id, out node!);

        public void Add(HnswNode node) => _nodes.Add(node.Id, node);

        public HnswNode Get(uint id)
        {
            if (!_nodes.TryGetValue(id, out var node))
            {
                node = HnswNode.Load(id, graph.ReadNode(pages, id).Span, graph.Definition.Dimensions);
                _nodes.Add(id, node);
            }

            return node;
        }

        public void Flush()
        {
            Span<byte> nodeKey = stackalloc byte[HnswKeys.NodeKeySize];
            Span<byte> reverseKey = stackalloc byte[HnswKeys.ReverseKeySize];
            foreach (var node in _nodes.Values)
            {
                if (!node.IsDirty)
                {
                    continue;
                }

                HnswKeys.WriteNodeKey(nodeKey, node.Id);
                if (node.IsDeleted)
                {
                    graph._tree.Delete(pages, nodeKey);
                }
                else
                {
                    graph._tree.Upsert(pages, nodeKey, node.Encode());
                }

                for (var layer = 0; layer <= node.TopLayer; layer++)
                {
                    var stored = node.StoredLinks[layer];
                    var current = node.IsDeleted ? [] : node.Links[layer].ToArray();
                    foreach (var target in stored)
                    {
                        if (Array.IndexOf(current, target) < 0)
                        {
                            HnswKeys.WriteReverseKey(reverseKey, target, layer, node.Id);
                            graph._tree.Delete(pages, reverseKey);
                        }
                    }

                    foreach (var target in current)
                    {
                        if (Array.IndexOf(stored, target) < 0)
                        {
                            HnswKeys.WriteReverseKey(reverseKey, target, layer, node.Id);
                            graph._tree.Insert(pages, reverseKey, ReadOnlySpan<byte>.Empty);
                        }
                    }

                    node.StoredLinks[layer] = current;
                }

                node.IsDirty = false;
                node.IsNew = false;
            }
        }
    }
}
