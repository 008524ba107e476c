using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

/// <summary>Decides whether a document (by its encoded primary key) may be returned by a filtered search.</summary>
internal delegate bool VectorCandidateFilter(ReadOnlySpan<byte> primaryKey);

/// <summary>A search result: the document's encoded primary key and its distance to the query.</summary>
internal readonly record struct VectorMatch(byte[] PrimaryKey, float Distance);

internal sealed partial class HnswGraph
{
    /// <summary>
    /// The (up to) <paramref name="k"/> nearest documents passing <paramref name="filter"/>, nearest
    /// first, searching layer 0 with a beam of max(<paramref name="ef"/>, k). The filter is applied
    /// while searching: rejected nodes are still walked through but never take a result slot, so
    /// the beam fills with matches. <paramref name="query"/> must be prepared
    /// (<see cref="VectorDistance.Prepare"/>). <paramref name="walkCodes"/> lets a search over a
    /// walk copy compare 8-bit codes and re-rank (<see cref="HnswWalkCopy.Search"/>).
    /// </summary>
    public List<VectorMatch> Search(IPageReader pages, ReadOnlySpan<float> query, int k, int ef, VectorCandidateFilter? filter, out int visitedNodes, bool walkCodes = true)
    {
        var meta = ReadMeta(pages);
        visitedNodes = 0;
        if (meta.Count == 0 || k <= 0)
        {
            return [];
        }

        if (HnswWalkCopies.Find(pages, RootPageId) is { } copy)
        {
            return copy.Search(query, k, ef, filter, out visitedNodes, walkCodes);
        }

        var matches = WalkPages(pages, meta, query, k, ef, filter, out visitedNodes);
        HnswWalkCopies.RecordWalk(pages, RootPageId, visitedNodes, meta.Count, snapshot => HnswWalkCopy.Build(_tree, pages, meta, Definition, snapshot));
        return matches;
    }

    /// <summary>The search over the pages: one B+ tree lookup per node visited.</summary>
    internal List<VectorMatch> WalkPages(IPageReader pages, HnswMeta meta, ReadOnlySpan<float> query, int k, int ef, VectorCandidateFilter? filter, out int visitedNodes)
    {
        var scratch = new SearchScratch();
        pages = scratch.Memo.Begin(pages);
        var entry = meta.EntryNode;
        var entryDistance = Distance(query, ReadNode(pages, entry).Span);
        for (var layer = meta.TopLayer; layer > 0; layer--)
        {
            (entry, entryDistance) = Greedy(pages, query, entry, entryDistance, layer);
        }

        scratch.Entries.Add(new LayerHit(entry, entryDistance));
        SearchLayer(pages, query, Math.Max(ef, k), 0, filter, scratch);
        visitedNodes = scratch.Visited.Count;
        var count = Math.Min(k, scratch.Found.Count);
        var matches = new List<VectorMatch>(count);
        for (var i = 0; i < count; i++)
        {
            var hit = scratch.Found[i];
            matches.Add(new VectorMatch(new HnswNodeView(ReadNode(pages, hit.Node).Span, Definition.Dimensions).PrimaryKey.ToArray(), hit.Distance));
        }

        return matches;
    }

    /// <summary>The exact k nearest among every node passing <paramref name="filter"/>: a scan of the whole graph.</summary>
    public List<VectorMatch> ExactSearch(IPageReader pages, ReadOnlySpan<float> query, int k, VectorCandidateFilter? filter)
    {
        var top = new TopK(k);
        var cursor = _tree.Scan(pages, KeyRange.Prefix([HnswKeys.NodeSpace]));
        while (cursor.MoveNext())
        {
            var view = new HnswNodeView(cursor.ValueSpan, Definition.Dimensions);
            if (filter is null || filter(view.PrimaryKey))
            {
                top.Offer(view.PrimaryKey, Distance(query, view.Vector));
            }
        }

        return top.ToList();
    }

    /// <summary>The exact k nearest among the given documents (those not in the index are skipped).</summary>
    public List<VectorMatch> ExactSearch(IPageReader pages, ReadOnlySpan<float> query, int k, IEnumerable<byte[]> primaryKeys)
    {
        var top = new TopK(k);
        foreach (var primaryKey in primaryKeys)
        {
            var node = FindNode(pages, primaryKey);
            if (node != 0)
            {
                var view = new HnswNodeView(ReadNode(pages, node).Span, Definition.Dimensions);
                top.Offer(view.PrimaryKey, Distance(query, view.Vector));
            }
        }

        return top.ToList();
    }

    private float Distance(ReadOnlySpan<float> query, ReadOnlySpan<byte> record) =>
        Distance(query, new HnswNodeView(record, Definition.Dimensions).Vector);

    private float Distance(ReadOnlySpan<float> query, ReadOnlySpan<float> vector) =>
        VectorDistance.Compute(Definition.Metric, query, vector);

    /// <summary>Walks to ever nearer neighbours on one upper layer until none is nearer.</summary>
    private (uint Node, float Distance) Greedy(IPageReader pages, ReadOnlySpan<float> query, uint node, float distance, int layer)
    {
        var improved = true;
        while (improved)
        {
            improved = false;
            var links = new HnswNodeView(ReadNode(pages, node).Span, Definition.Dimensions).Links(layer);
            for (var i = 0; i < links.Length / sizeof(uint); i++)
            {
                var neighbour = HnswNodeView.LinkAt(links, i);
                var candidate = Distance(query, ReadNode(pages, neighbour).Span);
                if (candidate < distance)
                {
                    (node, distance, improved) = (neighbour, candidate, true);
                }
            }
        }

        return (node, distance);
    }

    /// <summary>
    /// Beam search on one layer from <see cref="SearchScratch.Entries"/>; leaves the best
    /// <paramref name="ef"/> accepted nodes in <see cref="SearchScratch.Found"/>, nearest first.
    /// Allocates nothing per visited node: the visited set and both heaps are reused buffers.
    /// </summary>
    private void SearchLayer(IPageReader pages, ReadOnlySpan<float> query, int ef, int layer, VectorCandidateFilter? filter, SearchScratch scratch)
    {
        if (pages is not PageMemo)
        {
            pages = scratch.Memo.Begin(pages);
        }

        var visited = scratch.Visited;
        var candidates = scratch.Candidates;
        var results = scratch.Results;
        visited.Clear();
        candidates.Clear();
        results.Clear();
        foreach (var entry in scratch.Entries)
        {
            if (!visited.Add(entry.Node))
            {
                continue;
            }

            candidates.Enqueue(entry.Node, entry.Distance);
            if (filter is null || filter(new HnswNodeView(ReadNode(pages, entry.Node).Span, Definition.Dimensions).PrimaryKey))
            {
                results.Enqueue(entry.Node, entry.Distance);
                if (results.Count > ef)
                {
                    results.Dequeue();
                }
            }
        }

        while (candidates.TryDequeue(out var current, out var currentDistance))
        {
            if (results.Count >= ef && results.TryPeek(out _, out var worst) && currentDistance > worst)
            {
                break;
            }

            var links = new HnswNodeView(ReadNode(pages, current).Span, Definition.Dimensions).Links(layer);
            for (var i = 0; i < links.Length / sizeof(uint); i++)
            {
                var neighbour = HnswNodeView.LinkAt(links, i);
                if (!visited.Add(neighbour))
                {
                    continue;
                }

                var view = new HnswNodeView(ReadNode(pages, neighbour).Span, Definition.Dimensions);
                var distance = Distance(query, view.Vector);
                if (results.Count >= ef && results.TryPeek(out _, out var bound) && distance >= bound)
                {
                    continue;
                }

                candidates.Enqueue(neighbour, distance);
                if (filter is null || filter(view.PrimaryKey))
                {
                    results.Enqueue(neighbour, distance);
                    if (results.Count > ef)
                    {
                        results.Dequeue();
                    }
                }
            }
        }

        var found = scratch.Found;
        found.Clear();
        while (results.TryDequeue(out var node, out var distance))
        {
            found.Add(new LayerHit(node, distance));
        }

        found.Reverse();
    }

    private readonly record struct LayerHit(uint Node, float Distance);

    private sealed class SearchScratch
    {
        private static readonly Comparer<float> Farthest = Comparer<float>.Create(static (a, b) => b.CompareTo(a));

        public HashSet<uint> Visited { get; } = [];

        /// <summary>Nodes to expand, nearest first.</summary>
        public PriorityQueue<uint, float> Candidates { get; } = new();

        /// <summary>The best accepted nodes so far, farthest first (so the worst is dropped first).</summary>
        public PriorityQueue<uint, float> Results { get; } = new(Farthest);

        public List<LayerHit> Entries { get; } = [];

        public List<LayerHit> Found { get; } = [];

        /// <summary>The pages read during the current step (see <see cref="PageMemo"/>).</summary>
        public PageMemo Memo { get; } = new();
    }

    /// <summary>Keeps the k nearest offered, copying only the keys that enter.</summary>
    private sealed class TopK(int k)
    {
        private static readonly Comparer<float> Farthest = Comparer<float>.Create(static (a, b) => b.CompareTo(a));
        private readonly PriorityQueue<byte[], float> _heap = new(Farthest);

        public void Offer(ReadOnlySpan<byte> primaryKey, float distance)
        {
            if (k <= 0)
            {
                return;
            }

            if (_heap.Count < k)
            {
                _heap.Enqueue(primaryKey.ToArray(), distance);
            }
            else if (_heap.TryPeek(out _, out var worst) && distance < worst)
            {
                _heap.DequeueEnqueue(primaryKey.ToArray(), distance);
            }
        }

        public List<VectorMatch> ToList()
        {
            var list = new List<VectorMatch>(_heap.Count);
            while (_heap.TryDequeue(out var key, out var distance))
            {
                list.Add(new VectorMatch(key, distance));
            }

            list.Reverse();
            return list;
        }
    }
}
