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

    /// <summary>
    /// Removes a document's node. Every node that linked to it (found through the reverse-edge
    /// keys) uses the freed slot for the removed node's neighbour nearest to it, and each of the
    /// removed node's neighbours that no such node then links to is linked from the one nearest to
    /// it; so every way through the removed node is replaced by a way around it (see
    /// <see cref="Bridge"/>). False when the document is not in the graph.
    /// </summary>
    public bool Delete(IPageWriter pages, ReadOnlySpan<byte> primaryKey)
    {
        var id = FindNode(pages, primaryKey);
        if (id == 0)
        {
            return false;
        }

        var session = new WriteSession(this, pages);
        var removed = session.Get(id);

        // Marked first, so the repairs below no longer count its links as a way into a node.
        removed.IsDeleted = true;
        removed.IsDirty = true;
        var meta = ReadMeta(pages);
        meta = meta with { Count = meta.Count - 1 };
        HnswNode? entry = null;
        if (meta.Count == 0)
        {
            meta = meta with { EntryNode = 0, TopLayer = 0 };
        }
        else if (meta.EntryNode == id)
        {
            entry = ChooseEntry(pages, session, removed);
            meta = meta with { EntryNode = entry.Id, TopLayer = entry.TopLayer };
        }

        for (var layer = 0; layer <= removed.TopLayer; layer++)
        {
            var sources = new List<HnswNode>();
            foreach (var source in ReverseSources(pages, id, layer))
            {
                if (source != id)
                {
                    sources.Add(session.Get(source));
                }
            }

            Bridge(session, removed, layer, sources);

            // The new entry point stands where the old one was: it links to what that one linked to.
            if (entry is not null && entry.TopLayer >= layer)
            {
                foreach (var target in removed.Links[layer])
                {
                    if (target != entry.Id && target != id)
                    {
                        Link(session, entry.Id, target, layer);
                    }
                }
            }
        }

        session.Flush();
        if (meta.Count > 0)
        {
            Reconnect(pages, session, meta, removed);
        }

        _tree.Delete(pages, HnswKeys.DocumentKey(primaryKey));
        WriteMeta(pages, meta);
        return true;
    }

    /// <summary>
    /// Makes sure every node the removed one linked to can still be found from the entry point.
    /// The bridging keeps local paths, but a region whose only way in from the rest of the graph
    /// ran through the removed node is linked to it only from inside, and would be cut off. So
    /// each such node is searched for from the entry point, as an insert would (descending the
    /// upper layers, then a beam of 2M on layer 0); one the search does not find among the 2M
    /// nearest is linked on layer 0 from the nearest node it did find (one with a free slot when
    /// there is one, so no list is pruned). A search can only find what is reachable through edges
    /// of some layer from the entry point, which is what Verify's reachability check walks.
    /// </summary>
    private void Reconnect(IPageWriter pages, WriteSession session, HnswMeta meta, HnswNode removed)
    {
        // A link added here can prune one added for an earlier target; a second pass re-checks.
        for (var pass = 0; pass < 3 && ReconnectPass(pages, session, meta, removed); pass++)
        {
        }
    }

    /// <summary>One round of <see cref="Reconnect"/>; true when it had to add a link.</summary>
    private bool ReconnectPass(IPageWriter pages, WriteSession session, HnswMeta meta, HnswNode removed)
    {
        var scratch = new SearchScratch();
        var linked = false;
        var targets = new HashSet<uint>();
        for (var layer = 0; layer <= removed.TopLayer; layer++)
        {
            targets.UnionWith(removed.Links[layer]);
        }

        // Not merely reachable: a neighbour the search for its own vector does not find among the
        // 2M nearest gets the link too, which also mends the neighbourhood the removal thinned.
        foreach (var target in targets)
        {
            if (target == meta.EntryNode || target == removed.Id)
            {
                continue;
            }

            SearchFromEntry(pages, meta, session.Get(target).Vector, scratch);
            if (scratch.Found.Count == 0 || scratch.Found.Exists(hit => hit.Node == target))
            {
                continue;
            }

            var from = scratch.Found[0].Node;
            foreach (var hit in scratch.Found)
            {
                if (hit.Node != target && session.Get(hit.Node).Links[0].Count < MaxLinks(0))
                {
                    from = hit.Node;
                    break;
                }
            }

            Link(session, from, target, 0);
            session.Flush();
            linked = true;
        }

        return linked;
    }

    /// <summary>Descends the upper layers towards <paramref name="vector"/>, then a layer-0 beam of 2M; leaves what it found and visited in <paramref name="scratch"/>.</summary>
    private void SearchFromEntry(IPageReader pages, HnswMeta meta, ReadOnlySpan<float> vector, SearchScratch scratch)
    {
        var reader = scratch.Memo.Begin(pages);
        var entry = meta.EntryNode;
        var entryDistance = Distance(vector, ReadNode(reader, entry).Span);
        for (var layer = meta.TopLayer; layer > 0; layer--)
        {
            (entry, entryDistance) = Greedy(reader, vector, entry, entryDistance, layer);
        }

        scratch.Entries.Clear();
        scratch.Entries.Add(new LayerHit(entry, entryDistance));
        SearchLayer(pages, vector, MaxLinks(0), 0, null, scratch);
    }

    /// <summary>
    /// Replaces the removed node's edges on a layer. Its in-neighbours keep their other links
    /// (re-choosing them would prune links that are some region's only way in, and cut it off);
    /// the slots they freed go to its neighbours, nearest pairs first, one neighbour per slot
    /// while some are still unlinked, so no list has to be pruned. A neighbour still unlinked
    /// after that is linked from the nearest in-neighbour, pruning only with
    /// <see cref="KeepLastIncoming"/>. Only edges into and out of the removed node are lost, and
    /// every node it linked to is again linked from a node that linked to it.
    /// </summary>
    private void Bridge(WriteSession session, HnswNode removed, int layer, List<HnswNode> sources)
    {
        var targets = new List<HnswNode>();
        foreach (var target in removed.Links[layer])
        {
            if (target != removed.Id)
            {
                targets.Add(session.Get(target));
            }
        }

        var linked = new HashSet<uint>();
        var pairs = new List<(HnswNode Source, HnswNode Target, float Distance)>();
        foreach (var source in sources)
        {
            var links = source.Links[layer];
            links.Remove(removed.Id);
            source.IsDirty = true;
            foreach (var target in targets)
            {
                if (links.Contains(target.Id))
                {
                    linked.Add(target.Id);
                }
                else if (target.Id != source.Id)
                {
                    pairs.Add((source, target, Distance(source.Vector, target.Vector)));
                }
            }
        }

        pairs.Sort(static (a, b) => a.Distance.CompareTo(b.Distance));

        // First the neighbours no one links to yet, then any free slot left takes the nearest.
        foreach (var onlyUnlinked in (ReadOnlySpan<bool>)[true, false])
        {
            foreach (var (source, target, _) in pairs)
            {
                var links = source.Links[layer];
                if (links.Count < MaxLinks(layer) && !links.Contains(target.Id) && (!onlyUnlinked || !linked.Contains(target.Id)))
                {
                    links.Add(target.Id);
                    linked.Add(target.Id);
                }
            }
        }

        foreach (var target in targets)
        {
            if (linked.Contains(target.Id))
            {
                continue;
            }

            HnswNode? nearest = null;
            var nearestDistance = float.MaxValue;
            foreach (var source in sources)
            {
                var distance = Distance(source.Vector, target.Vector);
                if (source.Id != target.Id && distance < nearestDistance)
                {
                    (nearest, nearestDistance) = (source, distance);
                }
            }

            if (nearest is not null)
            {
                Link(session, nearest.Id, target.Id, layer);
            }
        }
    }

    /// <summary>A new entry point after the current one left: its highest-layer neighbour, else the highest node of all.</summary>
    private HnswNode ChooseEntry(IPageReader pages, WriteSession session, HnswNode removed)
    {
        for (var layer = removed.TopLayer; layer >= 0; layer--)
        {
            HnswNode? best = null;
            foreach (var candidate in removed.Links[layer])
            {
                var node = session.Get(candidate);
                if (best is null || node.TopLayer > best.TopLayer)
                {
                    best = node;
                }
            }

            if (best is not null)
            {
                return best;
            }
        }

        // Isolated entry point: the highest node of all (rare, one scan of the graph).
        var top = (Id: 0u, Layer: -1);
        var cursor = _tree.Scan(pages, KeyRange.Prefix([HnswKeys.NodeSpace]));
        while (cursor.MoveNext())
        {
            var layer = new HnswNodeView(cursor.ValueSpan, Definition.Dimensions).TopLayer;
            if (layer > top.Layer && HnswKeys.ReadNodeKey(cursor.Key) != removed.Id)
            {
                top = (HnswKeys.ReadNodeKey(cursor.Key), layer);
            }
        }

        return session.Get(top.Id);
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
