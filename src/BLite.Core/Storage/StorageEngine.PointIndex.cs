using System.Numerics;
using BLite.Core.BTrees;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// An adaptive hash index over B+ tree point reads: a fixed-size table from a short key (and its
/// tree's root) to the page versions the last descent for that key went through and the slot it
/// found there, so a repeated lookup skips the root and branch searches and the leaf's own search.
/// Each slot has two parts: an entry object holding the path's versions, and a cache line of
/// <see cref="PointLines"/> holding what a hit needs, with the range of snapshots the path was proven
/// to serve, so a hit reads that one line and the leaf's memoized version, not the entry and the
/// versions of the root and branches.
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
/// A line's range is proven from the entry's versions: <c>From</c> is the newest
/// <see cref="PageVersion.Seq"/> on the path; <c>Until</c> is the published snapshot read
/// <em>before</em> the versions' <see cref="PageVersion.ReplacedAt"/>, lowered below any that
/// was already set. A version still unreplaced after that read serves every snapshot up to it,
/// because a commit sets <see cref="PageVersion.ReplacedAt"/> before it publishes. Each version
/// must also still be in its chain when the range is proven: a dropped one would never learn that
/// it was replaced. That the path serves every snapshot of
/// the range is a fact about the history of commits, so it stays true whatever happens to those
/// versions later; a hit then needs only the leaf's image, taken from the hot-page memo under the
/// memo's own check (the version the reader's snapshot reads, cached). A branch evicted since
/// does not matter: a descent would read the same bytes back. A commit after the range ends makes
/// a reader of the new snapshot miss the line; it then proves the entry's versions again (they may
/// well still serve) and widens the line, without a descent.
/// </para>
/// <para>
/// An entry keeps its key and root as words, compared exactly with the ones sought, so a hash
/// collision (another key, another tree) reads as a miss, never as another key's value; the slot it
/// names is where the descent's search found that key in the very image the entry points to, and
/// cached images are never mutated. Entries are immutable and published with one reference store,
/// so a reader never sees half of one; a line is a seqlock (<see cref="PointLine.Stamp"/>), read
/// whole or not at all. Two readers filling one pair at once may lose an entry or a line, which
/// only costs a later descent; a line always holds what one entry said, with a range proven from
/// that entry's versions. Only descents whose every page
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
    private readonly PointLines _pointLines;
    private readonly int _pointSlotShift;
    private readonly SplitCounter _pointIndexHits = new();
    private readonly SplitCounter _pointLinesProven = new();

    /// <summary>
    /// The index's slot count for a cache of <paramref name="budgetBytes"/>: a few per cached page
    /// (a leaf holds a handful of documents or hundreds of index keys), as a power of two, so its
    /// memory stays a small share of the cache's (a 64-byte line and a reference per slot, and an
    /// entry of about 80 bytes per filled one).
    /// </summary>
    internal static int PointEntriesFor(long budgetBytes, int pageSize)
    {
        var entries = budgetBytes / pageSize * PointEntriesPerCachePage;
        return entries <= MinPointEntries ? MinPointEntries : (int)Math.Min(MaxPointEntries, BitOperations.RoundUpToPowerOf2((ulong)entries));
    }

    /// <summary>Point reads the index answered without a descent.</summary>
    internal long PointIndexHits => _pointIndexHits.Value;

    /// <summary>Lookups whose line did not cover their snapshot but whose entry, proven again, did (and widened the line).</summary>
    internal long PointLinesProven => _pointLinesProven.Value;

    /// <summary>Slots in the point index (its memory bound: a line and a reference per slot, one small entry per filled slot).</summary>
    internal int PointIndexSlots => _pointEntries.Length;

    /// <summary>Bytes of the index's lines and slot references (filled entries add about 80 bytes each).</summary>
    internal long PointIndexTableBytes => _pointLines.Bytes + ((long)_pointEntries.Length * IntPtr.Size);

    internal void AddPointIndexHits(int slot, int hits) => _pointIndexHits.Add(slot, hits);

    /// <summary>
    /// The leaf image and location of <paramref name="key"/> in the tree rooted at
    /// <paramref name="rootPageId"/> as the registered <paramref name="snapshot"/> sees it, when the
    /// index says so for that snapshot; false means "descend", never "absent".
    /// </summary>
    /// <param name="pageCount">The snapshot's page count: as on a descent, no page at or past it is read.</param>
    internal bool TryFindPoint(uint rootPageId, ReadOnlySpan<byte> key, long snapshot, uint pageCount, out byte[] leaf, out PointLocation location)
    {
        var sought = new PointKey(rootPageId, key);
        var slot = PointSlot(sought);

        // Two slots per key, so keys whose hashes collide do not evict each other on every lookup.
        if (TryReadLine(slot, sought, snapshot, pageCount, out var leafPageId, out location)
            || TryReadLine(slot ^ 1, sought, snapshot, pageCount, out leafPageId, out location))
        {
            // The memo's check is the one a descent's leaf read makes: the version this snapshot
            // reads of that page, its image cached. The line proved which bytes that image holds.
            if (TryGetHotVersion(leafPageId, snapshot)?.Image is { } image)
            {
                leaf = image;
                return true;
            }
        }

        return TryProvePoint(slot, sought, snapshot, pageCount, out leaf, out location);
    }

    /// <summary>
    /// Records that a descent from <paramref name="rootPageId"/> through <paramref name="path"/>
    /// (root first, each version from the memo) found <paramref name="key"/> at
    /// <paramref name="location"/> of the last one.
    /// </summary>
    internal void RememberPoint(uint rootPageId, ReadOnlySpan<byte> key, ReadOnlySpan<PageVersion> path, PointLocation location)
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
                ref var firstLine = ref _pointLines[slot];
                ref var secondLine = ref _pointLines[slot ^ 1];
                var kept = firstLine.Used != 0 || secondLine.Used != 0;
                firstLine.Used = 0;
                secondLine.Used = 0;
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

        var entry = new PointEntry(remembered, path, location);
        Volatile.Write(ref _pointEntries[slot], entry);
        if (TryProveRange(entry, out var from, out var until))
        {
            WriteLine(slot, entry, from, until);
        }
    }

    private int PointSlot(in PointKey key) => (int)(key.Hash() >> _pointSlotShift);

    /// <summary>A seqlock read of one line: its location when it holds <paramref name="sought"/> for this snapshot.</summary>
    private bool TryReadLine(int slot, in PointKey sought, long snapshot, uint pageCount, out uint leafPageId, out PointLocation location)
    {
        ref var line = ref _pointLines[slot];

        // Every read is an acquire, so none moves after the second read of the stamp: an
        // unchanged even stamp means no writer touched the fields in between.
        var stamp = Volatile.Read(ref line.Stamp);
        leafPageId = Volatile.Read(ref line.LeafPageId);
        var valueWord = Volatile.Read(ref line.ValueWord);
        var index = Volatile.Read(ref line.Index);
        var valueOffset = Volatile.Read(ref line.ValueOffset);
        if ((stamp & 1) == 0
            && Volatile.Read(ref line.High) == sought.High && Volatile.Read(ref line.Low) == sought.Low
            && Volatile.Read(ref line.LengthAndRoot) == sought.LengthAndRoot
            && Volatile.Read(ref line.From) <= snapshot && snapshot <= Volatile.Read(ref line.Until)
            && Volatile.Read(ref line.HighestPageId) < pageCount
            && Volatile.Read(ref line.Stamp) == stamp)
        {
            if (line.Used == 0)
            {
                line.Used = 1;
            }

            location = new PointLocation(index, valueOffset, valueWord);
            return true;
        }

        location = default;
        return false;
    }

    /// <summary>
    /// After a line missed: the key's entry, when its versions still serve this snapshot (a commit
    /// since the line was proven that left the path alone), widening its line to the new range.
    /// </summary>
    private bool TryProvePoint(int slot, in PointKey sought, long snapshot, uint pageCount, out byte[] leaf, out PointLocation location)
    {
        var entry = Volatile.Read(ref _pointEntries[slot]);
        if (entry is null || !entry.Key.Equals(sought))
        {
            slot ^= 1;
            entry = Volatile.Read(ref _pointEntries[slot]);
        }

        if (entry is not null && entry.Key.Equals(sought) && entry.HighestPageId < pageCount
            && TryProveRange(entry, out var from, out var until) && from <= snapshot && snapshot <= until
            && entry.Leaf.Image is { } image && !Volatile.Read(ref _disposed))
        {
            entry.MarkReferenced();
            WriteLine(slot, entry, from, until);
            _pointLinesProven.Add(1);
            leaf = image;
            location = entry.Location;
            return true;
        }

        leaf = null!;
        location = default;
        return false;
    }

    /// <summary>
    /// The snapshots every version of <paramref name="entry"/>'s path serves (see the remarks): false
    /// when one of them left its chain, so its range could not be trusted to narrow when replaced.
    /// </summary>
    /// <remarks>
    /// Every way a version leaves its chain (pruned, or its chain forgotten once evicted) marks it
    /// <see cref="PageVersion.Dropped"/> under the engine lock; a version dropped before the
    /// snapshot read here was published is seen dropped, and one dropped after it was still in
    /// its chain when every commit up to that snapshot pushed. An evicted version that stays in
    /// its chain still learns its replacement, so a root or branch evicted since the descent does
    /// not stop the proof: the bytes a descent would read back are the same.
    /// </remarks>
    private bool TryProveRange(PointEntry entry, out long from, out long until)
    {
        // Read first: a version found unreplaced after this read was not replaced by any commit
        // up to it, since a commit sets ReplacedAt before it publishes.
        until = Volatile.Read(ref _published).Seq;
        from = 0;
        foreach (var version in entry.Path)
        {
            if (version is null)
            {
                break;
            }

            var replacedAt = version.ReplacedAt;
            if (version.Dropped)
            {
                return false;
            }

            from = Math.Max(from, version.Seq);
            until = Math.Min(until, replacedAt - 1);
        }

        return from <= until;
    }

    /// <summary>A seqlock write of <paramref name="entry"/> into its line; skipped when another writer holds the line.</summary>
    private void WriteLine(int slot, PointEntry entry, long from, long until)
    {
        ref var line = ref _pointLines[slot];
        var stamp = Volatile.Read(ref line.Stamp);
        if ((stamp & 1) != 0 || Interlocked.CompareExchange(ref line.Stamp, stamp + 1, stamp) != stamp)
        {
            return;
        }

        // The exchange is a full fence, so these stores are not seen before the odd stamp; the
        // release below publishes them with the next even one.
        line.LeafPageId = entry.Leaf.PageId;
        line.High = entry.Key.High;
        line.Low = entry.Key.Low;
        line.LengthAndRoot = entry.Key.LengthAndRoot;
        line.From = from;
        line.Until = until;
        line.HighestPageId = entry.HighestPageId;
        line.ValueWord = entry.Location.ValueWord;
        line.Index = (ushort)entry.Location.Index;
        line.ValueOffset = (ushort)entry.Location.ValueOffset;
        Volatile.Write(ref line.Stamp, stamp + 2);
    }

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
        private readonly PointPathVersions _path;

        public PointEntry(PointKey key, ReadOnlySpan<PageVersion> path, PointLocation location)
        {
            Key = key;
            Location = location;
            Leaf = path[^1];

            // Leaf first; a shallower tree leaves the upper levels null.
            for (var level = 0; level < path.Length; level++)
            {
                var version = path[path.Length - 1 - level];
                _path[level] = version;
                HighestPageId = Math.Max(HighestPageId, version.PageId);
            }
        }

        public PointKey Key { get; }

        public PointLocation Location { get; }

        public uint HighestPageId { get; }

        public PageVersion Leaf { get; }

        /// <summary>The path's versions, leaf first, then null past the root.</summary>
        public ReadOnlySpan<PageVersion?> Path => _path;

        /// <summary>Whether the newest snapshot reads this entry's leaf (unless a branch above it changed).</summary>
        public bool IsCurrent => IsCurrentVersion(Leaf);

        public static bool IsCurrentVersion(PageVersion version) => version.ReplacedAt == long.MaxValue && version.Image is not null;

        /// <summary>Marks the path's versions used, for the cache's clock, as the descent it stands for would.</summary>
        public void MarkReferenced()
        {
            foreach (var version in Path)
            {
                if (version is null)
                {
                    break;
                }

                if (!version.Referenced)
                {
                    version.Referenced = true;
                }
            }
        }
    }

    [System.Runtime.CompilerServices.InlineArray(PointPathDepth)]
    private struct PointPathVersions
    {
        private PageVersion? _level;
    }
}
