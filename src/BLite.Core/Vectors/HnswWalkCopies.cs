using System.Runtime.CompilerServices;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.Vectors;

/// <summary>
/// Decides when a search runs over an in-memory <see cref="HnswWalkCopy"/> instead of the pages,
/// and keeps the newest copy of each graph of each open engine.
/// </summary>
/// <remarks>
/// A copy is only used by a read-only snapshot (<see cref="ReadTransaction"/>) whose snapshot
/// sequence is the copy's own: pages of one sequence never change, so the copy is exactly what
/// that reader would walk. A write transaction (which sees its own changes) always walks the pages.
/// Building a copy costs one scan of the graph, about what searches visiting as many nodes as the
/// graph holds cost, so a copy of a sequence is built once searches on it have visited that many
/// nodes through the pages: with commits between every few searches no copy is ever built, and
/// with a stable snapshot the walk never costs more than twice what it would have with a copy.
/// The copy holds the graph's vectors (4 bytes per dimension per node) and links in memory for
/// as long as the engine is open, until a later sequence replaces it.
/// </remarks>
internal static class HnswWalkCopies
{
    private static readonly ConditionalWeakTable<StorageEngine, Dictionary<uint, GraphState>> Engines = [];

    /// <summary>The copy <paramref name="pages"/> may search, or null when it must walk the pages.</summary>
    public static HnswWalkCopy? Find(IPageReader pages, uint rootPageId)
    {
        if (pages is not ReadTransaction read)
        {
            return null;
        }

        var copy = StateOf(read.SnapshotEngine, rootPageId).Copy;
        return copy is not null && copy.Snapshot == read.Snapshot ? copy : null;
    }

    /// <summary>
    /// Counts the nodes a page walk of <paramref name="pages"/> visited and builds the copy of its
    /// sequence once the walks have cost as much as a build.
    /// </summary>
    public static void RecordWalk(IPageReader pages, uint rootPageId, int visitedNodes, long graphCount, Func<long, HnswWalkCopy> build)
    {
        if (pages is not ReadTransaction read)
        {
            return;
        }

        var state = StateOf(read.SnapshotEngine, rootPageId);
        lock (state)
        {
            if (read.Snapshot < state.Sequence || state.Building || state.Copy?.Snapshot == read.Snapshot)
            {
                return;
            }

            if (read.Snapshot > state.Sequence)
            {
                // Readers of the new sequence cannot use the old copy; it is let go rather than kept
                // for the older readers still open, so at most one copy per graph is held.
                (state.Sequence, state.VisitedSinceSequence, state.Copy) = (read.Snapshot, 0, null);
            }

            state.VisitedSinceSequence += visitedNodes;
            if (state.VisitedSinceSequence < graphCount)
            {
                return;
            }

            state.Building = true;
        }

        HnswWalkCopy? built = null;
        try
        {
            built = build(read.Snapshot);
        }
        finally
        {
            lock (state)
            {
                state.Building = false;
                if (built is not null && state.Sequence == built.Snapshot)
                {
                    state.Copy = built;
                }
            }
        }
    }

    private static GraphState StateOf(StorageEngine engine, uint rootPageId)
    {
        var graphs = Engines.GetValue(engine, static _ => []);
        lock (graphs)
        {
            if (!graphs.TryGetValue(rootPageId, out var state))
            {
                state = new GraphState();
                graphs.Add(rootPageId, state);
            }

            return state;
        }
    }

    private sealed class GraphState
    {
        public long Sequence { get; set; }

        public long VisitedSinceSequence { get; set; }

        public bool Building { get; set; }

        private HnswWalkCopy? _copy;

        /// <summary>Read without the lock by searches; written under it.</summary>
        public HnswWalkCopy? Copy
        {
            get => Volatile.Read(ref _copy);
            set => Volatile.Write(ref _copy, value);
        }
    }
}
