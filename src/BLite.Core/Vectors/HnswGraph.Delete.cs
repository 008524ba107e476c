using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

internal sealed partial class HnswGraph
{
    /// <summary>
    /// Removes a document's node. The nodes that linked to it (found through the reverse-edge
    /// keys) link to its neighbours instead (<see cref="Bridge"/>), then each of its neighbours is
    /// searched for from the entry point and linked from what the search found if the search
    /// missed it (<see cref="Reconnect"/>), so no region is cut off and the neighbourhood stays
    /// searchable. False when the document is not in the graph.
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
}
