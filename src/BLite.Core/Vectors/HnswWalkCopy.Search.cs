using System.Buffers;

namespace BLite.Core.Vectors;

internal sealed partial class HnswWalkCopy
{
    private static readonly Comparer<float> Farthest = Comparer<float>.Create(static (a, b) => b.CompareTo(a));

    /// <summary>
    /// The same search as <see cref="HnswGraph.Search"/> (same entry, same greedy descent, same
    /// beam and filter rule), over the copy: it returns the same matches.
    /// </summary>
    public List<VectorMatch> Search(ReadOnlySpan<float> query, int k, int ef, VectorCandidateFilter? filter, out int visitedNodes)
    {
        visitedNodes = 0;
        if (Count == 0 || k <= 0)
        {
            return [];
        }

        var entry = _entrySlot;
        var entryDistance = Distance(query, entry);
        for (var layer = _topLayer; layer > 0; layer--)
        {
            (entry, entryDistance) = Greedy(query, entry, entryDistance, layer);
        }

        var beam = Math.Max(ef, k);

        // A bit per slot: cheaper than a hash set at a thousand visits per search.
        var words = (Count + 63) / 64;
        var visited = ArrayPool<ulong>.Shared.Rent(words);
        try
        {
            Array.Clear(visited, 0, words);
            return Walk(query, k, filter, entry, entryDistance, beam, visited, out visitedNodes);
        }
        finally
        {
            ArrayPool<ulong>.Shared.Return(visited);
        }
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

    private List<VectorMatch> Walk(ReadOnlySpan<float> query, int k, VectorCandidateFilter? filter, int entry, float entryDistance, int beam, ulong[] visited, out int visitedNodes)
    {
        Visit(visited, entry);
        visitedNodes = 1;
        var candidates = new PriorityQueue<int, float>();
        var results = new PriorityQueue<int, float>(Farthest);
        candidates.Enqueue(entry, entryDistance);
        if (filter is null || filter(_keys[entry]))
        {
            results.Enqueue(entry, entryDistance);
        }

        while (candidates.TryDequeue(out var current, out var currentDistance))
        {
            if (results.Count >= beam && results.TryPeek(out _, out var worst) && currentDistance > worst)
            {
                break;
            }

            foreach (var neighbour in LinksOf(current, 0))
            {
                if (!Visit(visited, neighbour))
                {
                    continue;
                }

                visitedNodes++;
                var distance = Distance(query, neighbour);
                if (results.Count >= beam && results.TryPeek(out _, out var bound) && distance >= bound)
                {
                    continue;
                }

                candidates.Enqueue(neighbour, distance);
                if (filter is null || filter(_keys[neighbour]))
                {
                    results.Enqueue(neighbour, distance);
                    if (results.Count > beam)
                    {
                        results.Dequeue();
                    }
                }
            }
        }

        var found = new (int Slot, float Distance)[results.Count];
        for (var i = found.Length - 1; results.TryDequeue(out var slot, out var distance); i--)
        {
            found[i] = (slot, distance);
        }

        var count = Math.Min(k, found.Length);
        var matches = new List<VectorMatch>(count);
        for (var i = 0; i < count; i++)
        {
            matches.Add(new VectorMatch((byte[])_keys[found[i].Slot].Clone(), found[i].Distance));
        }

        return matches;
    }

    private float Distance(ReadOnlySpan<float> query, int slot) => VectorDistance.Compute(_metric, query, VectorOf(slot));

    private (int Slot, float Distance) Greedy(ReadOnlySpan<float> query, int slot, float distance, int layer)
    {
        var improved = true;
        while (improved)
        {
            improved = false;
            foreach (var neighbour in LinksOf(slot, layer))
            {
                var candidate = Distance(query, neighbour);
                if (candidate < distance)
                {
                    (slot, distance, improved) = (neighbour, candidate, true);
                }
            }
        }

        return (slot, distance);
    }
}
