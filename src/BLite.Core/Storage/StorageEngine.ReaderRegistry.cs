using System.Runtime.InteropServices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// Lock-free registration of readers of the published snapshot (docs/storage.md, "Registering
/// readers without the lock"). Every publication of a commit installs a new
/// <see cref="SnapshotReaders"/>; a reader counts itself on the installed one and then checks that
/// it is still installed. The pruners (commit's hidden-version drop, the checkpoint, the pinning
/// of versions for old readers) run under <c>_sync</c> after the publication they follow, and find
/// every counted snapshot through <see cref="_published"/> and <see cref="_retiredReaders"/>.
/// </summary>
/// <remarks>
/// The race that matters: a reader loads the published registration for snapshot S, a commit then
/// publishes S+1 and drops the versions only S sees, and only then does the reader count itself
/// on S. Both sides store and then load with a full fence in between (the reader's
/// <see cref="Interlocked.Increment(ref int)"/> before it re-reads <see cref="_published"/>; the
/// publisher's <see cref="Interlocked.Exchange{T}(ref T, T)"/> before it reads the retired
/// registration's count), so at least one sees the other's store: either the publisher sees the
/// count and keeps S live, or the reader sees S+1 installed, withdraws its count and retries. A
/// reader therefore never reads as S unless every pruner after S's retirement counts it.
/// </remarks>
internal sealed partial class StorageEngine
{
    /// <summary>After this many lost races with publications, a reader registers under the lock (a publication cannot move past it there).</summary>
    private const int LockFreeRegistrationAttempts = 2;

    // Registrations no longer published that still counted readers when they were retired or at
    // the last look. Under _sync.
    private readonly List<SnapshotReaders> _retiredReaders = [];
    private SnapshotReaders _published = new(0);
    private Action<long>? _afterPublishedLoad;
    private long _registrationRetries;

    /// <summary>
    /// Test hook: runs on a reader's thread after it loaded the published registration and before
    /// it counts itself on it, so a test can publish and prune in exactly that gap.
    /// </summary>
    internal Action<long>? AfterPublishedLoad
    {
        set => _afterPublishedLoad = value;
    }

    /// <summary>Registrations that lost the race with a publication and were retried (for tests that must see the race happen).</summary>
    internal long RegistrationRetries => Interlocked.Read(ref _registrationRetries);

    /// <summary>Makes <paramref name="seq"/> the snapshot new readers get. Call under _sync.</summary>
    private void Publish(long seq)
    {
        _publishedSeq = seq;
        var retired = Interlocked.Exchange(ref _published, new SnapshotReaders(seq) { PageCount = PageCountAt(seq) });

        // After the exchange's fence: a reader that counts itself on `retired` from now on sees the
        // new registration when it checks, and withdraws. A count seen here may also be such a
        // withdrawing reader; keeping its snapshot live a little longer is harmless.
        if (Volatile.Read(ref retired.Count) > 0)
        {
            _retiredReaders.Add(retired);
        }
    }

    /// <summary>
    /// Registers a reader of the published snapshot without the engine lock in the common case;
    /// no page version it sees is pruned until <see cref="EndRead(SnapshotReaders)"/>.
    /// </summary>
    private SnapshotReaders EnterRead(out uint pageCount) => AfterRegistration(RegisterPublished(), null, out pageCount);

    /// <summary>Checks the engine is open and reads the snapshot's page count for a reader just registered; ends the registration if that fails.</summary>
    private SnapshotReaders AfterRegistration(SnapshotReaders readers, ReaderSlot? slot, out uint pageCount)
    {
        try
        {
            ThrowIfDisposedUnlocked();
            pageCount = Volatile.Read(ref readers.PageCount);
            if (pageCount == 0)
            {
                // Published before the open knew the count; the first reader leaves it for the others.
                lock (_sync)
                {
                    pageCount = PageCountAt(readers.Seq);
                }

                Volatile.Write(ref readers.PageCount, pageCount);
            }

            return readers;
        }
        catch
        {
            EndLentRead(readers, slot);
            throw;
        }
    }

    private SnapshotReaders RegisterPublished()
    {
        for (var attempt = 0; attempt < LockFreeRegistrationAttempts; attempt++)
        {
            var published = Volatile.Read(ref _published);
            _afterPublishedLoad?.Invoke(published.Seq);
            Interlocked.Increment(ref published.Count);
            if (ReferenceEquals(Volatile.Read(ref _published), published))
            {
                return published;
            }

            // Retired before the count could be seen; a pruner that saw it anyway kept versions
            // for it, which ending it as a read releases.
            EndRead(published);
            Interlocked.Increment(ref _registrationRetries);
        }

        return RegisterPublishedUnderLock();
    }

    /// <summary>Counts a reader on the published registration under the lock, where no publication can move past it.</summary>
    private SnapshotReaders RegisterPublishedUnderLock()
    {
        lock (_sync)
        {
            ThrowIfDisposed();
            var published = _published;
            Interlocked.Increment(ref published.Count);
            return published;
        }
    }

    /// <summary>Ends a reader registered by <see cref="EnterRead(out uint)"/>.</summary>
    internal void EndRead(SnapshotReaders readers)
    {
        if (Interlocked.Decrement(ref readers.Count) == 0)
        {
            ReleaseAfterLastRead(readers);
        }
    }

    /// <summary>What the end of the last counted reader of <paramref name="readers"/>'s snapshot, or of a reader in a thread's slot, may release: versions pinned or, in memory, kept for it.</summary>
    private void ReleaseAfterLastRead(SnapshotReaders readers)
    {
        // Pinned versions are released by the reader that ends their snapshot; without pins (the
        // common case) there is nothing to prune, so no lock. A pin made just after this check
        // for this snapshot is dropped by the checkpoint that made it (it prunes every page it
        // pinned) or by the next prune, as before.
        if (_pages.HasPins)
        {
            lock (_sync)
            {
                if (_pages.HasPins)
                {
                    _pages.PrunePinnedPages(LiveSnapshots());
                }
            }
        }

        // In memory, versions kept for this snapshot go with its last reader. Only the last reader
        // of a snapshot already replaced by a commit, while some page holds history, takes the
        // lock: at most once per such commit and reading thread. The published snapshot is live anyway.
        if (Volatile.Read(ref _historyHeld) != 0 && !ReferenceEquals(Volatile.Read(ref _published), readers))
        {
            lock (_sync)
            {
                ReleaseHistoryAfterRead();
            }
        }
    }

    private void ThrowIfDisposedUnlocked()
    {
        if (Volatile.Read(ref _disposed))
        {
            ThrowDisposed();
        }
    }

    /// <summary>Readers registered at this instant, counted once per reader. Call under _sync.</summary>
    private int RegisteredReaderCount()
    {
        var count = Math.Max(0, Volatile.Read(ref _published.Count));
        foreach (var retired in _retiredReaders)
        {
            count += Math.Max(0, Volatile.Read(ref retired.Count));
        }

        foreach (var locked in _readers.Values)
        {
            count += locked;
        }

        return count + SlotReaderCount();
    }

    /// <summary>
    /// Every snapshot a registered reader holds (unsorted, possibly repeated), forgetting retired
    /// registrations whose readers have all ended: a later registration on them fails its check.
    /// Call under _sync.
    /// </summary>
    private List<long> RegisteredSnapshots()
    {
        var snapshots = new List<long>(_readers.Count + _retiredReaders.Count + 1);
        AddRegisteredSnapshots(snapshots);
        return snapshots;
    }

    /// <summary>Adds every registered snapshot to <paramref name="snapshots"/> (see <see cref="RegisteredSnapshots"/>). Call under _sync.</summary>
    private void AddRegisteredSnapshots(List<long> snapshots)
    {
        foreach (var snapshot in _readers.Keys)
        {
            snapshots.Add(snapshot);
        }

        _retiredReaders.RemoveAll(static retired => Volatile.Read(ref retired.Count) <= 0);
        foreach (var retired in _retiredReaders)
        {
            snapshots.Add(retired.Seq);
        }

        var published = _published;
        if (Volatile.Read(ref published.Count) > 0)
        {
            snapshots.Add(published.Seq);
        }

        AddSlotSnapshots(snapshots);
    }

    /// <summary>The oldest snapshot a registered reader holds, or long.MaxValue. Call under _sync.</summary>
    private long OldestRegisteredSnapshot()
    {
        var oldest = long.MaxValue;
        foreach (var snapshot in _readers.Keys)
        {
            oldest = Math.Min(oldest, snapshot);
        }

        _retiredReaders.RemoveAll(static retired => Volatile.Read(ref retired.Count) <= 0);
        foreach (var retired in _retiredReaders)
        {
            oldest = Math.Min(oldest, retired.Seq);
        }

        // The published snapshot is live whether or not it has readers; the caller counts it.
        return Math.Min(oldest, OldestSlotSnapshot());
    }

    /// <summary>Registers <paramref name="snapshot"/> (which need not be published yet) for the engine's own reader. Call under _sync.</summary>
    private void RegisterUnderLock(long snapshot) => CollectionsMarshal.GetValueRefOrAddDefault(_readers, snapshot, out _)++;

    /// <summary>Ends a registration made by <see cref="RegisterUnderLock"/>.</summary>
    private void EndLockedRead(long snapshot)
    {
        lock (_sync)
        {
            ref var count = ref CollectionsMarshal.GetValueRefOrNullRef(_readers, snapshot);
            if (--count == 0)
            {
                _readers.Remove(snapshot);
            }

            if (_pages.HasPins)
            {
                _pages.PrunePinnedPages(LiveSnapshots());
            }

            ReleaseHistoryAfterRead();
        }
    }

    /// <summary>The readers of one published snapshot; a new one per publication.</summary>
    internal sealed class SnapshotReaders(long seq)
    {
        public readonly long Seq = seq;

        /// <summary>Registered readers; briefly includes a reader that lost the race and is withdrawing.</summary>
        public int Count;

        /// <summary>The snapshot's page count (see <see cref="PageCountAt"/>); 0 when published before the open knew it.</summary>
        public uint PageCount;

        /// <summary>
        /// What a layer above derived from this snapshot's pages (the catalog), left by the first
        /// reader for the others; an immutable object, since readers on any thread share it.
        /// </summary>
        public volatile object? Memo;
    }
}
