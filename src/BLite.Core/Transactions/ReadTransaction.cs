using BLite.Core.Diagnostics;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Transactions;

/// <summary>
/// A consistent snapshot of the database as of <see cref="StorageEngine.BeginRead"/>. Any number
/// may be open at once, on any threads; none blocks the writer. Dispose it to let the engine
/// forget the page versions only it still needs.
/// </summary>
/// <remarks>
/// <see cref="StorageEngine.Read{TState, TResult}"/> recycles one instance per thread so a point
/// read allocates nothing. A recycled instance belongs to the thread that made it (its thread id
/// and statistics slot are taken once, not per read) and drops its engine when idle (an idle
/// per-thread spare must not keep a closed engine and its cache alive);
/// a reference kept past the call finds it disposed, or on another thread, and throws rather than
/// read the later snapshot it may since have been re-armed with.
/// </remarks>
internal sealed class ReadTransaction : IPageReader, IDisposable
{
    [ThreadStatic]
    private static ReadTransaction? t_spare;

    private StorageEngine? _engine;
    private StorageEngine.SnapshotReaders? _registration;

    // The owner thread's registration slot while lent, when the read registered there.
    private StorageEngine.ReaderSlot? _slot;
    private int _ownerThreadId;
    private int _disposed;

    // The owner thread's ThreadSlot for a lent reader (its statistics add without an atomic); -1
    // for a reader any thread may use.
    private int _counterSlot = -1;

    internal ReadTransaction(StorageEngine engine, StorageEngine.SnapshotReaders registration, uint pageCount)
    {
        _engine = engine;
        _registration = registration;
        Snapshot = registration.Seq;
        PageCount = pageCount;
    }

    private ReadTransaction(int ownerThreadId, int counterSlot)
    {
        _ownerThreadId = ownerThreadId;
        _counterSlot = counterSlot;
    }

    /// <summary>The owner thread's statistics slot (<see cref="ThreadSlot"/>) while lent to one thread; -1 for a reader any thread may use.</summary>
    internal int CounterSlot => _counterSlot;

    public int PagePayloadSize => (_engine ?? throw new ObjectDisposedException(nameof(ReadTransaction))).PagePayloadSize;

    /// <summary>Pages 0..PageCount-1 exist in this snapshot.</summary>
    public uint PageCount { get; private set; }

    internal long Snapshot { get; private set; }

    /// <summary>The engine this snapshot reads (caches of per-snapshot data key on it); throws once disposed.</summary>
    internal StorageEngine SnapshotEngine => Engine;

    private StorageEngine Engine
    {
        get
        {
            ThrowIfUnusable();
            return _engine!;
        }
    }

    /// <summary>Page reads this reader took from the engine's hot-page memo and has not yet added to its count (a statistic: threads sharing one reader may lose an increment).</summary>
    internal int UncountedMemoHits { get; private set; }

    /// <summary>Point reads this reader took from the engine's point index and has not yet added to its count.</summary>
    internal int UncountedPointHits { get; private set; }

    public ReadOnlyMemory<byte> ReadPage(uint pageId)
    {
        var engine = Engine;
        return new ReadOnlyMemory<byte>(ReadImage(engine, pageId), 0, engine.PagePayloadSize);
    }

    public ReadOnlySpan<byte> ReadPageSpan(uint pageId)
    {
        var engine = Engine;
        return new ReadOnlySpan<byte>(ReadImage(engine, pageId), 0, engine.PagePayloadSize);
    }

    private byte[] ReadImage(StorageEngine engine, uint pageId) => ReadImage(engine, pageId, out _);

    /// <param name="version">The memoized version the image came from; null when it did not come from the memo.</param>
    private byte[] ReadImage(StorageEngine engine, uint pageId, out PageVersion? version)
    {
        PageGuards.ThrowIfNotUserPage(pageId, PageCount);
        version = engine.TryGetHotVersion(pageId, Snapshot);
        if (version?.Image is { } image)
        {
            // Counted here and added once at the end: an atomic add per page read was a visible
            // share of a point read.
            UncountedMemoHits++;
            return image;
        }

        version = null;
        return engine.GetImage(pageId, Snapshot);
    }

    public bool TryFindPoint(uint rootPageId, ReadOnlySpan<byte> key, out byte[] leaf, out int index)
    {
        var engine = Engine;
        if (engine.TryFindPoint(rootPageId, key, Snapshot, PageCount, out leaf, out index))
        {
            UncountedPointHits++;
            return true;
        }

        return false;
    }

    public ReadOnlySpan<byte> ReadNodeSpan(uint pageId, out PageVersion? version)
    {
        var engine = Engine;
        return new ReadOnlySpan<byte>(ReadImage(engine, pageId, out version), 0, engine.PagePayloadSize);
    }

    public void RememberPoint(uint rootPageId, ReadOnlySpan<byte> key, ReadOnlySpan<PageVersion> path, int index) =>
        Engine.RememberPoint(rootPageId, key, path, index);

    public ReadOnlyMemory<byte> ReadPageTransient(uint pageId, ref byte[]? scratch)
    {
        var engine = Engine;
        PageGuards.ThrowIfNotUserPage(pageId, PageCount);
        if (engine.TryGetHotPage(pageId, Snapshot, out var image))
        {
            UncountedMemoHits++;
        }
        else
        {
            image = engine.GetImage(pageId, Snapshot, ref scratch);
        }

        return new ReadOnlyMemory<byte>(image, 0, engine.PagePayloadSize);
    }

    public ReadOnlyMemory<byte> ReadPageAhead(uint pageId, PageReadAhead readAhead)
    {
        var engine = Engine;
        PageGuards.ThrowIfNotUserPage(pageId, PageCount);
        if (engine.TryGetHotPage(pageId, Snapshot, out var image))
        {
            UncountedMemoHits++;
            return new ReadOnlyMemory<byte>(image, 0, engine.PagePayloadSize);
        }

        return engine.GetImageAhead(pageId, Snapshot, readAhead)[..engine.PagePayloadSize];
    }

    public bool TryReadCounter(uint key, out long value) => Engine.TryGetCounter(key, Snapshot, out value);

    // Unchecked: a memo found here only names what the snapshot holds, and reading a page of it
    // still checks this reader.
    public StorageEngine.SnapshotReaders? SharedSnapshot => _registration;

    /// <summary>Reads any page, the header and free-list trunks included (for the consistency checker).</summary>
    internal ReadOnlyMemory<byte> ReadAnyPage(uint pageId)
    {
        var engine = Engine;
        return new(engine.GetImage(pageId, Snapshot), 0, engine.PagePayloadSize);
    }

    public void Dispose()
    {
        if (_ownerThreadId != 0)
        {
            // Lent: only its own thread may end it (the operation, or the call that lent it), so
            // no other thread races for the end and no atomic exchange is needed, one fewer per
            // point read.
            if (_ownerThreadId != Environment.CurrentManagedThreadId)
            {
                ThrowWrongThread();
            }

            EndOnOwnerThread();
            return;
        }

        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            End();
        }
    }

    private void EndOnOwnerThread()
    {
        if (_disposed == 0)
        {
            Volatile.Write(ref _disposed, 1);
            End();
        }
    }

    private void End()
    {
        if (UncountedMemoHits != 0)
        {
            _engine!.AddHotPageHits(_counterSlot, UncountedMemoHits);
            UncountedMemoHits = 0;
        }

        if (UncountedPointHits != 0)
        {
            _engine!.AddPointIndexHits(_counterSlot, UncountedPointHits);
            UncountedPointHits = 0;
        }

        _engine!.EndLentRead(_registration!, _slot);
    }

    /// <summary>The calling thread's spare instance (a new one when the spare is in use: a nested read), registered on the published snapshot, in the thread's slot when that is free.</summary>
    internal static ReadTransaction Rent(StorageEngine engine)
    {
        // An armed spare belongs to a read still running on this thread: this nested read gets
        // an instance of its own, dropped when it ends.
        var read = t_spare;
        if (read is null || read._engine is not null)
        {
            read = new ReadTransaction(Environment.CurrentManagedThreadId, ThreadSlot.Current);
            t_spare ??= read;
        }

        var registration = engine.EnterLentRead(read._counterSlot, out var pageCount, out var slot);
        read._engine = engine;
        read._registration = registration;
        read._slot = slot;
        read.Snapshot = registration.Seq;
        read.PageCount = pageCount;
        Volatile.Write(ref read._disposed, 0);
        return read;
    }

    /// <summary>Ends the snapshot (unless the operation already disposed it) and leaves the instance idle, ready for this thread's next read.</summary>
    internal void Recycle()
    {
        EndOnOwnerThread();
        _engine = null;
        _registration = null;
        _slot = null;
    }

    private void ThrowIfUnusable()
    {
        ObjectDisposedException.ThrowIf(_disposed != 0, this);
        if (_ownerThreadId != 0 && _ownerThreadId != Environment.CurrentManagedThreadId)
        {
            ThrowWrongThread();
        }
    }

    private static void ThrowWrongThread() =>
        throw new InvalidOperationException("This reader was lent for one call on another thread; use StorageEngine.BeginRead for a reader to share between threads.");
}
