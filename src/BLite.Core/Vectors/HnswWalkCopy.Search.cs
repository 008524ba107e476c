using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace BLite.Core.Vectors;

internal sealed partial class HnswWalkCopy
{
    /// <summary>The heaps and visited marks of the thread's last search, reused so a search allocates only its results.</summary>
    [ThreadStatic]
    private static WalkScratch? t_scratch;

    /// <summary>
    /// The same search as <see cref="HnswGraph.Search"/> (same entry, same greedy descent, same
    /// beam and filter rule), over the copy. With <paramref name="quantized"/> the walk compares
    /// 8-bit codes, then the beam's max(ef, k) best are re-ranked by their exact float32 distance
    /// (every returned distance is exact; a near neighbour whose code ranked it out of the beam can
    /// be missed, which the recall figures measure). Without it the walk computes the float32
    /// distances and returns exactly what the page walk returns.
    /// </summary>
    public List<VectorMatch> Search(ReadOnlySpan<float> query, int k, int ef, VectorCandidateFilter? filter, out int visitedNodes, bool quantized = true)
    {
        visitedNodes = 0;
        if (Count == 0 || k <= 0)
        {
            return [];
        }

        var scratch = t_scratch ??= new WalkScratch();
        t_scratch = null;
        try
        {
            scratch.Reset(Count);
            if (!quantized)
            {
                Walk(new ExactDistance(this, query), Math.Max(ef, k), filter, scratch, out visitedNodes);
                return Take(scratch.Found, k);
            }

            Span<byte> codes = _dimensions <= 1024 ? stackalloc byte[_dimensions] : new byte[_dimensions];
            _codes.Encode(query, codes);
            Walk(new CodeDistance(_codes, codes), Math.Max(ef, k), filter, scratch, out visitedNodes);
            var found = scratch.Found;
            for (var i = 0; i < found.Count; i++)
            {
                found[i] = (found[i].Slot, Distance(query, found[i].Slot));
            }

            found.Sort(static (a, b) => a.Distance != b.Distance ? a.Distance.CompareTo(b.Distance) : a.Slot.CompareTo(b.Slot));
            return Take(found, k);
        }
        finally
        {
            t_scratch = scratch;
        }
    }

    private List<VectorMatch> Take(List<(int Slot, float Distance)> found, int k)
    {
        var count = Math.Min(k, found.Count);
        var matches = new List<VectorMatch>(count);
        for (var i = 0; i < count; i++)
        {
            matches.Add(new VectorMatch((byte[])_keys[found[i].Slot].Clone(), found[i].Distance));
        }

        return matches;
    }

    /// <summary>Greedy descent of the upper layers, then the layer-0 beam; leaves the beam's best in <see cref="WalkScratch.Found"/>, nearest first.</summary>
    private void Walk<TDistance>(TDistance metric, int beam, VectorCandidateFilter? filter, WalkScratch scratch, out int visitedNodes)
        where TDistance : IWalkDistance, allows ref struct
    {
        var entry = _entrySlot;
        var entryDistance = metric.Distance(entry);
        for (var layer = _topLayer; layer > 0; layer--)
        {
            (entry, entryDistance) = Greedy(metric, entry, entryDistance, layer);
        }

        var visited = scratch.Visited;
        var candidates = scratch.Candidates;
        var results = scratch.Results;
        Visit(visited, entry);
        visitedNodes = 1;
        candidates.Enqueue(entry, entryDistance);
        if (filter is null || filter(_keys[entry]))
        {
            results.Enqueue(entry, -entryDistance);
        }

        while (candidates.TryDequeue(out var current, out var currentDistance))
        {
            if (results.Count >= beam && results.TryPeek(out _, out var worst) && currentDistance > -worst)
            {
                break;
            }

            var links = LinksOf(current, 0);
            foreach (var neighbour in links)
            {
                metric.Prefetch(neighbour);
            }

            foreach (var neighbour in links)
            {
                if (!Visit(visited, neighbour))
                {
                    continue;
                }

                visitedNodes++;
                var distance = metric.Distance(neighbour);
                if (results.Count >= beam && results.TryPeek(out _, out var bound) && distance >= -bound)
                {
                    continue;
                }

                candidates.Enqueue(neighbour, distance);
                if (filter is null || filter(_keys[neighbour]))
                {
                    results.Enqueue(neighbour, -distance);
                    if (results.Count > beam)
                    {
                        results.Dequeue();
                    }
                }
            }
        }

        var found = scratch.Found;
        while (results.TryDequeue(out var slot, out var negated))
        {
            found.Add((slot, -negated));
        }

        found.Reverse();
    }

    private static bool Visit(ulong[] visited, int slot)
    {
        ref var word = ref visited[slot >> 6];
        var bit = 1UL << slot;
        if ((word & bit) != 0)
        {
            return false;
        }

        word |= bit;
        return true;
    }

    private float Distance(ReadOnlySpan<float> query, int slot) => VectorDistance.Compute(_metric, query, VectorOf(slot));

    private (int Slot, float Distance) Greedy<TDistance>(TDistance metric, int slot, float distance, int layer)
        where TDistance : IWalkDistance, allows ref struct
    {
        var improved = true;
        while (improved)
        {
            improved = false;
            foreach (var neighbour in LinksOf(slot, layer))
            {
                var candidate = metric.Distance(neighbour);
                if (candidate < distance)
                {
                    (slot, distance, improved) = (neighbour, candidate, true);
                }
            }
        }

        return (slot, distance);
    }

    private interface IWalkDistance
    {
        float Distance(int slot);

        /// <summary>Asks the CPU to start loading a vector the walk is about to compare.</summary>
        void Prefetch(int slot);
    }

    private readonly ref struct ExactDistance(HnswWalkCopy copy, ReadOnlySpan<float> query) : IWalkDistance
    {
        private readonly ReadOnlySpan<float> _query = query;

        public float Distance(int slot) => copy.Distance(_query, slot);

        public void Prefetch(int slot)
        {
        }
    }

    private readonly ref struct CodeDistance(ScalarCodes codes, ReadOnlySpan<byte> query) : IWalkDistance
    {
        private readonly ReadOnlySpan<byte> _query = query;

        public float Distance(int slot) => codes.Distance(_query, slot);

        /// <summary>
        /// A neighbour list names up to 2M vectors scattered over the copy; starting all their loads
        /// before the first distance overlaps the cache misses that otherwise dominate the walk.
        /// The address is taken without pinning: if the GC moves the array in between, the hint
        /// loads a stale line, and a prefetch never faults or changes what is read.
        /// </summary>
        public unsafe void Prefetch(int slot)
        {
            if (Sse.IsSupported)
            {
                Sse.Prefetch0(Unsafe.AsPointer(ref codes.CodesOf(slot)));
            }
        }
    }

    private sealed class WalkScratch
    {
        private ulong[] _visited = [];

        /// <summary>A bit per slot: cheaper than a hash set at a thousand visits per search.</summary>
        public ulong[] Visited => _visited;

        /// <summary>Slots to expand, nearest first.</summary>
        public PriorityQueue<int, float> Candidates { get; } = new();

        /// <summary>
        /// The best accepted slots so far, farthest first (so the worst is dropped first): keyed by
        /// the negated distance, because the default comparer is inlined where a custom one costs
        /// a delegate call per comparison.
        /// </summary>
        public PriorityQueue<int, float> Results { get; } = new();

        public List<(int Slot, float Distance)> Found { get; } = [];

        public void Reset(int count)
        {
            var words = (count + 63) / 64;
            if (_visited.Length < words)
            {
                _visited = new ulong[words];
            }
            else
            {
                Array.Clear(_visited, 0, words);
            }

            Candidates.Clear();
            Results.Clear();
            Found.Clear();
        }
    }
}
