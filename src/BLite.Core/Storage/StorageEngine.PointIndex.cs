using System.Numerics;
using BLite.Core.BTrees;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// An adaptive hash index over B+ tree point reads: a fixed-size table from a short key (and its
/// tree's root) to the page versions the last descent for that key went through and the slot it
/// found there, so a repeated lookup skips the root and branch searches and the leaf's own search.
/// </summary>
/// <remarks>
/// <para>
/// A descent is a function of the images it reads. An entry records every version on its path,
/// root to leaf; when each of them still serves the reader's snapshot (see
/// <see cref="PageVersion.ServesCached"/>), that snapshot's descent would read exactly those images
/// and end on the same leaf and slot. Checking the leaf alone would not do: a page a merge frees
/// keeps its last image, unchanged, until it is reused, so a freed leaf still "serves" snapshots
/// after the merge with keys the tree no longer holds; the branch that pointed to it did change.
/// </para>
/// <para>
/// An entry keeps its key and root as words, compared exactly with the ones sought, so a hash
/// collision (another key, another tree) reads as a miss, never as another key's value; the slot it
/// names is where the descent's search found that key in the very image the entry points to, and
/// cached images are never mutated. Entries are immutable and published with one reference store,
/// so a reader never sees half of one; two readers filling one pair at once may lose an entry,
/// which only costs a later descent. Only descents whose every page
/// came from the hot-page memo fill an entry, so every image it leads to passed its checksum when
/// it entered the cache, as the memo's do. An entry holds versions, never images: an evicted or
/// dropped version has none, and the entry then reads as a miss until a descent refills it.
/// </para>
/// </remarks>
internal sealed partial class StorageEngine
{
    /// <summary>Root, branches and leaf: trees up to this deep get entries (four levels hold billions of short keys).</summary>
    internal const int PointPathDepth = 4;

    private const int PointEntriesPerCachePage = 8;
    private const int MinPointEntries = 256;
    private const int MaxPointEntries = 1 << 18;

    private readonly PointEntry?[] _pointEntries;
    private readonly int _pointSlotShift;
    private readonly SplitCounter _pointIndexHits = new();

    /// <summary>
    /// The index's entry count for a cache of <paramref name="budgetBytes"/>: a few per cached page
    /// (a leaf holds a handful of documents or hundreds of index keys), as a power of two, so its
    /// memory stays a small share of the cache's (a reference per slot, and an entry of about 80 bytes per filled one).
    /// </summary>
    internal static int PointEntriesFor(long budgetBytes, int pageSize)
    {
        var entries = budgetBytes / pageSize * PointEntriesPerCachePage;
        return entries <= MinPointEntries ? MinPointEntries : (int)Math.Min(MaxPointEntries, BitOperations.RoundUpToPowerOf2((ulong)entries));
    }

    /// <summary>Point reads the index answered without a descent.</summary>
    internal long PointIndexHits => _pointIndexHits.Value;

    /// <summary>Slots in the point index (its memory bound: one reference per slot, one small entry per filled slot).</summary>
    internal int PointIndexSlots => _pointEntries.Length;

    internal void AddPointIndexHits(int slot, int hits) => _pointIndexHits.Add(slot, hits);

    /// <summary>
    /// The leaf image and slot holding <paramref name="key"/> in the tree rooted at
    /// <paramref name="rootPageId"/> as the registered <paramref name="snapshot"/> sees it, when an
    /// entry says so and still holds for that snapshot; false means "descend", never "absent".
    /// </summary>
    /// <param name="pageCount">The snapshot's page count: as on a descent, no page at or past it is read.</param>
    internal bool TryFindPoint(uint rootPageId, ReadOnlySpan<byte> key, long snapshot, uint pageCount, out byte[] leaf, out int index)
    {
        var sought = new PointKey(rootPageId, key);
        var slot = PointSlot(sought);

        // Two slots per key, side by side in one cache line, so keys whose hashes collide do not
        // evict each other on every lookup.
        var entry = Volatile.Read(ref _pointEntries[slot]);
        if (entry is null || !entry.Key.Equals(sought))
        {
            entry = Volatile.Read(ref _pointEntries[slot ^ 1]);
        }

        if (entry is not null && entry.Key.Equals(sought) && entry.HighestPageId < pageCount && entry.Holds(snapshot)
            && entry.Leaf.Image is { } image && !Volatile.Read(ref _disposed))
        {
            if (!entry.Used)
            {
                entry.Used = true;
            }

            leaf = image;
            index = entry.Index;
            return true;
        }

        leaf = null!;
        index = 0;
        return false;
    }

    /// <summary>
    /// Records that a descent from <paramref name="rootPageId"/> through <paramref name="path"/>
    /// (root first, each version from the memo) found <paramref name="key"/> at
    /// <paramref name="index"/> of the last one.
    /// </summary>
    internal void RememberPoint(uint rootPageId, ReadOnlySpan<byte> key, ReadOnlySpan<PageVersion> path, int index)
    {
        var remembered = new PointKey(rootPageId, key);
        var slot = PointSlot(remembered);
        var first = Volatile.Read(ref _pointEntries[slot]);
        var second = Volatile.Read(ref _pointEntries[slot ^ 1]);

        var own = first is not null && first.Key.Equals(remembered) ? first
            : second is not null && second.Key.Equals(remembered) ? second : null;
        if (own is not null)
        {
            // The key's own entry no longer held for this reader. As in the hot-page memo, an old
            // reader does not take it from the current ones.
            if (own.IsCurrent && !PointEntry.IsCurrentVersion(path[^1]))
            {
                return;
            }

            if (ReferenceEquals(own, second))
            {
                slot ^= 1;
            }
        }
        else if (first is not null && first.Leaf.Image is not null)
        {
            // The first slot holds another key's live entry. A pair of live entries is replaced
            // only when neither was used since the last miss on the pair: keys taking turns with
            // the two held then miss without evicting them, and without allocating, on every
            // lookup, while a pair whose keys are no longer read is taken at its second miss.
            if (second is not null && second.Leaf.Image is not null)
            {
                var kept = first.Used || second.Used;
                first.Used = false;
                second.Used = false;
                if (kept)
                {
                    return;
                }
            }
            else
            {
                slot ^= 1;
            }
        }

        Volatile.Write(ref _pointEntries[slot], new PointEntry(remembered, path, index));
    }

    private int PointSlot(in PointKey key) => (int)(key.Hash() >> _pointSlotShift);

    /// <summary>A short key and its tree's root, as words: an entry is compared with the sought key without reading its pages.</summary>
    private readonly record struct PointKey
    {
        public PointKey(uint rootPageId, ReadOnlySpan<byte> key)
        {
            (High, Low) = ShortKey.Words(key);
            LengthAndRoot = ((ulong)rootPageId << 8) | (uint)key.Length;
        }

        public ulong High { get; }

        public ulong Low { get; }

        public ulong LengthAndRoot { get; }

        /// <summary>
        /// Multiplicative hashing: the caller keeps the product's top bits, the ones every input bit
        /// reaches (a short key's zero padding would leave its low bits alone).
        /// </summary>
        public ulong Hash() => ((High * 0x9E37_79B9_7F4A_7C15UL) ^ BitOperations.RotateLeft(Low, 32) ^ LengthAndRoot) * 0xC2B2_AE3D_27D4_EB4FUL;
    }

    /// <summary>One remembered descent: immutable once published.</summary>
    private sealed class PointEntry
    {
        private readonly PageVersion? _parent;
        private readonly PageVersion? _grandparent;
        private readonly PageVersion? _greatGrandparent;

        public PointEntry(PointKey key, ReadOnlySpan<PageVersion> path, int index)
        {
            Key = key;
            Index = index;
            Leaf = path[^1];
            foreach (var version in path)
            {
                HighestPageId = Math.Max(HighestPageId, version.PageId);
            }

            // A shallower tree leaves the upper levels null.
            var above = path[..^1];
            _parent = above.Length > 0 ? above[^1] : null;
            _grandparent = above.Length > 1 ? above[^2] : null;
            _greatGrandparent = above.Length > 2 ? above[^3] : null;
        }

        public PointKey Key { get; }

        /// <summary>Set by a lookup it answered, cleared by a miss on its pair: the replacement's second chance.</summary>
        public bool Used { get; set; }

        public int Index { get; }

        public uint HighestPageId { get; }

        public PageVersion Leaf { get; }

        /// <summary>Whether the newest snapshot reads this entry's leaf (unless a branch above it changed).</summary>
        public bool IsCurrent => IsCurrentVersion(Leaf);

        public static bool IsCurrentVersion(PageVersion version) => version.ReplacedAt == long.MaxValue && version.Image is not null;

        /// <summary>Whether every version on the path serves <paramref name="snapshot"/>; marks them used for the cache's clock.</summary>
        public bool Holds(long snapshot) =>
            Serves(Leaf, snapshot) && Serves(_parent, snapshot) && Serves(_grandparent, snapshot) && Serves(_greatGrandparent, snapshot);

        private static bool Serves(PageVersion? version, long snapshot)
        {
            if (version is null)
            {
                return true;
            }

            if (!version.ServesCached(snapshot))
            {
                return false;
            }

            if (!version.Referenced)
            {
                version.Referenced = true;
            }

            return true;
        }
    }
}
