using System.Runtime.InteropServices;
using BLite.Core.Diagnostics;

namespace BLite.Core.Storage;

/// <summary>
/// Per-thread registration of lent readers (docs/storage.md, "A slot per reading thread"): a
/// thread's point read stores its snapshot's registration in a slot only that thread writes, so
/// it shares no counter with other readers and ends without an atomic instruction.
/// </summary>
/// <remarks>
/// Registering keeps the store-fence-load of the shared registration: the reader exchanges its
/// slot (a full fence) and then re-reads <see cref="_published"/>, the publisher exchanges
/// <see cref="_published"/> before any pruner reads the slots, so one of them sees the other.
/// Ending is a plain store that empties the slot followed by plain loads of the release flags
/// (<see cref="Paging.PageTable.HasPins"/>, <see cref="_historyHeld"/>). The side that may miss the
/// other there is the pruner that raised a flag: it raises it with a full fence, and whenever it
/// then finds a slot still holding a retired snapshot it runs a process-wide barrier and reads
/// the slots again (<see cref="SlotsForPruning"/>). After the barrier a slot still full belongs to a reader whose emptying store
/// (and so its flag loads, which follow it) comes after the barrier's fence on its processor: it
/// sees the flag and releases under the lock what the pruner kept for it.
/// </remarks>
internal sealed partial class StorageEngine
{
    // One cell per thread number (ThreadSlot), grown under _sync; a grown array holds the same
    // cells, so a store through the old array is seen through the new one.
    private ReaderSlot?[] _readerSlots = [];
    private long _slotBarriers;

    // Set under _sync by a pruner that raised a release flag (a pin, in-memory history): its next
    // look at the slots must be exact for readers ending without a fence. Under _sync.
    private bool _slotsUnsettled;

    /// <summary>Lent readers registered in their thread's slot at this instant (for tests).</summary>
    internal int SlotReaders => SlotReaderCount();

    /// <summary>Process-wide barriers pruners ran because a slot still held a retired snapshot (for tests that must see it happen).</summary>
    internal long SlotBarriers => Interlocked.Read(ref _slotBarriers);

    /// <summary>
    /// Registers a lent reader of the thread numbered <paramref name="threadSlot"/> in its slot; a
    /// thread whose slot is taken (a nested read) or that has none counts itself on the shared
    /// registration instead. <paramref name="slot"/> is what <see cref="EndLentRead"/> must get back.
    /// </summary>
    internal SnapshotReaders EnterLentRead(int threadSlot, out uint pageCount, out ReaderSlot? slot)
    {
        slot = ReaderSlotFor(threadSlot);
        if (slot is null || slot.Snapshot != ReaderSlot.Empty)
        {
            slot = null;
            return EnterRead(out pageCount);
        }

        var readers = RegisterInSlot(slot);
        if (readers is null)
        {
            slot = null;
            readers = RegisterPublishedUnderLock();
        }

        return AfterRegistration(readers, slot, out pageCount);
    }

    /// <summary>Ends a registration made by <see cref="EnterLentRead"/>.</summary>
    internal void EndLentRead(SnapshotReaders readers, ReaderSlot? slot)
    {
        if (slot is null)
        {
            EndRead(readers);
            return;
        }

        // A plain store, and then plain loads of the release flags: see the remarks above for why
        // no fence is needed. A slot's reader is the only one it counts, so it is always the last.
        Volatile.Write(ref slot.Snapshot, ReaderSlot.Empty);
        ReleaseAfterLastRead(readers);
    }

    private SnapshotReaders? RegisterInSlot(ReaderSlot slot)
    {
        for (var attempt = 0; attempt < LockFreeRegistrationAttempts; attempt++)
        {
            var published = Volatile.Read(ref _published);
            _afterPublishedLoad?.Invoke(published.Seq);
            Interlocked.Exchange(ref slot.Snapshot, published.Seq);
            if (ReferenceEquals(Volatile.Read(ref _published), published))
            {
                return published;
            }

            // Retired before the slot could be seen; a pruner that saw it anyway kept versions
            // for it, which ending it as a read releases.
            EndLentRead(published, slot);
            Interlocked.Increment(ref _registrationRetries);
        }

        return null;
    }

    private ReaderSlot? ReaderSlotFor(int threadSlot)
    {
        var slots = Volatile.Read(ref _readerSlots);
        if ((uint)threadSlot < (uint)slots.Length && slots[threadSlot] is { } slot)
        {
            return slot;
        }

        return (uint)threadSlot < SplitCounter.MaxSlots ? AddReaderSlot(threadSlot) : null;
    }

    private ReaderSlot AddReaderSlot(int threadSlot)
    {
        lock (_sync)
        {
            var slots = _readerSlots;
            if (threadSlot >= slots.Length)
            {
                var grown = new ReaderSlot?[Math.Min(SplitCounter.MaxSlots, Math.Max(threadSlot + 1, slots.Length * 2))];
                slots.CopyTo(grown, 0);
                slots = grown;
            }

            var slot = slots[threadSlot] ??= new ReaderSlot();
            Volatile.Write(ref _readerSlots, slots);
            return slot;
        }
    }

    /// <summary>
    /// The slots, for reading the registrations they hold at this instant; after a release flag
    /// was raised, made exact for readers that end without a fence (see the remarks above): once
    /// per raising, and only when some slot still holds a retired snapshot. Call under _sync.
    /// </summary>
    private ReaderSlot?[] SlotsForPruning()
    {
        var slots = _readerSlots;
        if (!_slotsUnsettled)
        {
            return slots;
        }

        _slotsUnsettled = false;
        var published = _published;
        foreach (var slot in slots)
        {
            if (slot is not null && Volatile.Read(ref slot.Snapshot) is var held && held != ReaderSlot.Empty && held != published.Seq)
            {
                Interlocked.MemoryBarrierProcessWide();
                _slotBarriers++;
                break;
            }
        }

        return slots;
    }

    private void AddSlotSnapshots(List<long> snapshots)
    {
        foreach (var slot in SlotsForPruning())
        {
            if (slot is not null && Volatile.Read(ref slot.Snapshot) is var held && held != ReaderSlot.Empty)
            {
                snapshots.Add(held);
            }
        }
    }

    private long OldestSlotSnapshot()
    {
        var oldest = long.MaxValue;
        foreach (var slot in SlotsForPruning())
        {
            if (slot is not null && Volatile.Read(ref slot.Snapshot) is var held && held != ReaderSlot.Empty)
            {
                oldest = Math.Min(oldest, held);
            }
        }

        return oldest;
    }

    private int SlotReaderCount()
    {
        var count = 0;
        foreach (var slot in Volatile.Read(ref _readerSlots))
        {
            count += slot is not null && Volatile.Read(ref slot.Snapshot) != ReaderSlot.Empty ? 1 : 0;
        }

        return count;
    }

    /// <summary>One thread's registration: the snapshot its lent reader holds, or <see cref="Empty"/>.</summary>
    // Padded to a cache line of its own, so threads registering in neighbouring slots do not share
    // one. A number rather than the registration object: exchanging a reference takes a runtime
    // helper and a write barrier, a long is one instruction.
    [StructLayout(LayoutKind.Explicit, Size = 128)]
    internal sealed class ReaderSlot
    {
        public const long Empty = -1;

        [FieldOffset(64)]
        public long Snapshot = Empty;
    }
}
