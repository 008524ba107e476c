using System.Runtime.InteropServices;

namespace BLite.Core.Diagnostics;

/// <summary>
/// A statistic many threads add to without an atomic instruction per addition: a caller that
/// knows its thread's slot (<see cref="ThreadSlot"/>) adds to a cell only that thread ever writes,
/// with a plain store; any other caller adds atomically to a shared cell; a read sums the cells.
/// No addition is ever lost, and a read sees every addition that happened before it on the
/// reading thread or was published to it (a point read's atomic add was a visible share of its cost).
/// </summary>
internal sealed class SplitCounter
{
    /// <summary>Threads beyond this many slots add to the shared cell atomically, so the cells stay bounded.</summary>
    internal const int MaxSlots = 256;

    private readonly Lock _grow = new();
    private Cell?[] _cells = [];
    private long _shared;

    /// <summary>The total of every addition so far.</summary>
    public long Value
    {
        get
        {
            var total = Interlocked.Read(ref _shared);
            foreach (var cell in Volatile.Read(ref _cells))
            {
                if (cell is not null)
                {
                    total += Volatile.Read(ref cell.Value);
                }
            }

            return total;
        }
    }

    /// <summary>Adds from any thread (one atomic add).</summary>
    public void Add(long amount) => Interlocked.Add(ref _shared, amount);

    /// <summary>
    /// Adds from the thread that owns <paramref name="slot"/> (a value of <see cref="ThreadSlot.Current"/>
    /// taken on this same thread), without an atomic instruction once the slot has its cell.
    /// </summary>
    public void Add(int slot, long amount)
    {
        var cells = _cells;
        if ((uint)slot < (uint)cells.Length && cells[slot] is { } cell)
        {
            // Only this thread writes this cell, so a read-then-write loses nothing; the volatile
            // write publishes it to readers of the total.
            Volatile.Write(ref cell.Value, cell.Value + amount);
            return;
        }

        AddToNewCell(slot, amount);
    }

    private void AddToNewCell(int slot, long amount)
    {
        if ((uint)slot >= MaxSlots)
        {
            Add(amount);
            return;
        }

        lock (_grow)
        {
            var cells = _cells;
            if (slot >= cells.Length)
            {
                // Cells are objects, so a grown array holds the very cells the old one did and no
                // addition made through the old array is lost.
                var grown = new Cell?[Math.Min(MaxSlots, Math.Max(slot + 1, cells.Length * 2))];
                cells.CopyTo(grown, 0);
                cells = grown;
            }

            var cell = cells[slot] ??= new Cell();
            Volatile.Write(ref _cells, cells);
            Volatile.Write(ref cell.Value, cell.Value + amount);
        }
    }

    // Padded to a cache line of its own, so threads adding to neighbouring cells do not share one.
    [StructLayout(LayoutKind.Explicit, Size = 128)]
    private sealed class Cell
    {
        [FieldOffset(64)]
        public long Value;
    }
}

/// <summary>
/// A small number for each thread that asks, never given to another thread: the index of the
/// thread's own cell in every <see cref="SplitCounter"/>. Numbers are not reused after a thread
/// ends (its cells keep its additions), so a process that keeps starting threads eventually runs
/// past <see cref="SplitCounter.MaxSlots"/> and those threads add atomically instead.
/// </summary>
internal static class ThreadSlot
{
    [ThreadStatic]
    private static int t_slotPlusOne;

    private static int s_assigned;

    /// <summary>The calling thread's slot.</summary>
    public static int Current
    {
        get
        {
            var slot = t_slotPlusOne - 1;
            return slot >= 0 ? slot : Assign();
        }
    }

    private static int Assign()
    {
        // Past int.MaxValue threads the count wraps negative; those threads all share the last
        // number, which lies far beyond MaxSlots, so they add atomically.
        var slot = Interlocked.Increment(ref s_assigned) - 1;
        slot = slot < 0 ? int.MaxValue - 1 : slot;
        t_slotPlusOne = slot + 1;
        return slot;
    }
}
