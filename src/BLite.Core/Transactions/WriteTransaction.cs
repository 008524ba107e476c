using System.Runtime.InteropServices;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Transactions;

/// <summary>
/// The single write transaction. Pages it writes are private copies until <see cref="Commit"/>
/// appends them to the WAL as one atomic unit; <see cref="Rollback"/> (or Dispose without
/// Commit) throws them away and leaves no trace. It is not tied to a thread: it may be committed
/// on another thread after an await. It is not safe for concurrent use by several threads.
/// </summary>
internal sealed partial class WriteTransaction : IPageWriter, IDisposable
{
    private readonly StorageEngine _engine;
    private long _snapshot;
    private readonly Dictionary<uint, byte[]> _dirty = [];
    private HashSet<uint>? _freed;
    private List<uint>? _freedInOrder;
    private DatabaseHeader _originalHeader;
    private DatabaseHeader _header;
    private TransactionState _state = TransactionState.Active;
    private ICommitParticipant? _participant;
    private CounterChanges _counters;

    /// <param name="nested">
    /// Run by a holder of the writer slot (the checkpoint persisting counters): the transaction
    /// never releases the slot, and its commit never starts a checkpoint.
    /// </param>
    /// <param name="lent">
    /// Lent by <see cref="StorageEngine.BeginLentWrite"/>: the caller ends it with
    /// <see cref="EndLent"/> and keeps no reference, so the object can serve the next such write.
    /// </param>
    internal WriteTransaction(StorageEngine engine, long snapshot, DatabaseHeader header, bool nested = false, bool lent = false)
    {
        _engine = engine;
        _snapshot = snapshot;
        _header = header;
        _originalHeader = header;
        _nested = nested;
        _lent = lent;
    }

    private readonly bool _nested;
    private readonly bool _lent;
    private bool _startsBackgroundCheckpoint;

    private enum TransactionState
    {
        Active,
        Committing,
        Committed,
        RolledBack,
        Failed,
    }

    public int PagePayloadSize => _engine.PagePayloadSize;

    /// <summary>The engine this transaction writes to.</summary>
    internal StorageEngine Engine => _engine;

    /// <summary>Pages this transaction has changed so far.</summary>
    internal int DirtyPageCount => _dirty.Count;

    /// <summary>
    /// Bytes logged with the commit in record frames rather than as pages (the change journal's
    /// events; see <see cref="StorageEngine.SetLogRecordFolder"/>). Set by a participant before the
    /// seal; empty when there is none. Its bytes must stay unchanged until the engine releases it.
    /// </summary>
    internal ReadOnlyMemory<byte> LogRecord { get; set; }

    /// <summary>
    /// The participant of type <typeparamref name="T"/> attached to this transaction, created by
    /// <paramref name="create"/> on first use. One participant per transaction is all the
    /// layers above need (the change journal); a second kind would be refused here.
    /// </summary>
    internal T GetOrAddParticipant<T>(Func<T> create)
        where T : class, ICommitParticipant
    {
        ThrowIfNotActive();
        if (_participant is null)
        {
            _participant = create();
        }
        else if (_participant is not T)
        {
            throw new InvalidOperationException($"The transaction already has a commit participant of type {_participant.GetType().Name}.");
        }

        return (T)_participant;
    }

    /// <summary>Pages 0..PageCount-1 exist in this transaction's view.</summary>
    public uint PageCount => _header.PageCount;

    /// <summary>Pages on the free list as of the start of this transaction's commit work.</summary>
    public uint FreePageCount => _header.FreePageCount;

    public ReadOnlyMemory<byte> ReadPage(uint pageId)
    {
        ThrowIfNotActive();
        ThrowIfNotLivePage(pageId);
        var image = _dirty.TryGetValue(pageId, out var copy) ? copy : _engine.GetImage(pageId, _snapshot, remember: false);
        return new ReadOnlyMemory<byte>(image, 0, PagePayloadSize);
    }

    public bool TryReadCounter(uint key, out long value) =>
        _counters.TryGet(key, out value) || _engine.TryGetCounter(key, _snapshot, out value);

    public void SetCounter(uint key, long value)
    {
        ThrowIfNotActive();
        _counters.Set(key, value);
    }

    public Memory<byte> WritePage(uint pageId)
    {
        ThrowIfNotActive();
        ThrowIfNotLivePage(pageId);
        return new Memory<byte>(Writable(pageId), 0, PagePayloadSize);
    }

    public Memory<byte> WritePage(uint pageId, ReadOnlyMemory<byte> read)
    {
        ThrowIfNotActive();
        ThrowIfNotLivePage(pageId);

        // A page not yet written was read from its committed image (a whole page-sized array),
        // which the copy can take as it is; anything else goes the usual way.
        if (!_dirty.ContainsKey(pageId)
            && MemoryMarshal.TryGetArray(read, out var segment)
            && segment.Offset == 0
            && segment.Array!.Length == _engine.PageSize)
        {
            var image = _engine.RentPageImage();
            segment.Array.CopyTo(image, 0);
            _dirty[pageId] = image;
            return new Memory<byte>(image, 0, PagePayloadSize);
        }

        return new Memory<byte>(Writable(pageId), 0, PagePayloadSize);
    }

    public uint AllocatePage()
    {
        ThrowIfNotActive();
        uint pageId;
        if (_header.FreeListHead != 0)
        {
            var trunkId = _header.FreeListHead;
            var trunk = Writable(trunkId).AsSpan(0, PagePayloadSize);
            if (FreeListTrunk.Count(trunk) > 0)
            {
                pageId = FreeListTrunk.Pop(trunk);
            }
            else
            {
                pageId = trunkId;
                _header.FreeListHead = FreeListTrunk.Next(trunk);
            }

            _header.FreePageCount--;
        }
        else
        {
            if (_header.PageCount == uint.MaxValue)
            {
                throw new BLiteException($"Database '{_engine.Path}' is full: it already has {uint.MaxValue} pages.");
            }

            pageId = _header.PageCount++;
        }

        _dirty[pageId] = ZeroedImage();
        return pageId;
    }

    public void FreePage(uint pageId)
    {
        ThrowIfNotActive();
        if (pageId <= PageIds.Catalog || pageId >= _header.PageCount)
        {
            throw new ArgumentOutOfRangeException(nameof(pageId), pageId, $"Only pages 2..{_header.PageCount - 1} can be freed: pages 0 and 1 are permanent.");
        }

        _freed ??= [];
        _freedInOrder ??= [];
        if (!_freed.Add(pageId))
        {
            throw new InvalidOperationException($"Page {pageId} was already freed in this transaction.");
        }

        _freedInOrder.Add(pageId);
        if (pageId >= _originalHeader.PageCount)
        {
            // Allocated past the old end by this transaction: it has no committed image anywhere,
            // so it is written (zeroed) anyway, or the file would hold a hole below its page count.
            _dirty[pageId] = ZeroedImage();
        }
        else
        {
            _dirty.Remove(pageId);
        }
    }

    /// <summary>
    /// Throws away every change; the writer slot is released. After a failed commit it does
    /// nothing: the commit already ended the transaction and released the slot, and a
    /// <c>using</c> block's Dispose must not replace the commit's exception with its own.
    /// </summary>
    public void Rollback()
    {
        if (_state == TransactionState.Failed)
        {
            return;
        }

        if (_state != TransactionState.Active)
        {
            ThrowIfNotActive();
        }

        _state = TransactionState.RolledBack;
        _engine.ReturnPageImages(_dirty.Values);
        _dirty.Clear();
        _counters.Clear();
        ReleaseWriterSlot();
    }

    /// <summary>Rolls back unless committed.</summary>
    public void Dispose()
    {
        if (_state == TransactionState.Active)
        {
            Rollback();
        }
    }

    /// <summary>
    /// Ends a lent transaction (rolling it back unless it committed) and gives the object back to
    /// the engine for the next lent write, unless its commit failed. The caller must not touch it
    /// afterwards: it may already be another write's.
    /// </summary>
    internal void EndLent()
    {
        Dispose();
        if (_lent && _state is TransactionState.Committed or TransactionState.RolledBack)
        {
            _engine.ReturnLentWrite(this);
        }
    }

    /// <summary>Makes a finished lent transaction a new one on <paramref name="snapshot"/>; the caller holds the writer slot.</summary>
    internal void Rearm(long snapshot, DatabaseHeader header)
    {
        _snapshot = snapshot;
        _header = header;
        _originalHeader = header;
        _dirty.Clear();
        _freed = null;
        _freedInOrder = null;
        _participant = null;
        _counters.Clear();
        LogRecord = default;
        _startsBackgroundCheckpoint = false;
        _state = TransactionState.Active;
    }

    private void ReleaseWriterSlot()
    {
        if (!_nested)
        {
            _engine.ReleaseWriter();
        }
    }

    /// <summary>This transaction's private image of the page, copied from the snapshot on first write.</summary>
    private byte[] Writable(uint pageId)
    {
        if (!_dirty.TryGetValue(pageId, out var image))
        {
            // Every byte is overwritten by the copy, so the array need not be zeroed first.
            var committed = _engine.GetImage(pageId, _snapshot, remember: false);
            image = committed.Length == _engine.PageSize ? _engine.RentPageImage() : GC.AllocateUninitializedArray<byte>(committed.Length);
            committed.CopyTo(image, 0);
            _dirty[pageId] = image;
        }

        return image;
    }

    private byte[] ZeroedImage()
    {
        var image = _engine.RentPageImage();
        Array.Clear(image);
        return image;
    }

    private void ThrowIfNotLivePage(uint pageId)
    {
        PageGuards.ThrowIfNotUserPage(pageId, _header.PageCount);
        if (_freed is not null && _freed.Contains(pageId))
        {
            throw new InvalidOperationException($"Page {pageId} was freed in this transaction and can no longer be used.");
        }
    }

    private void ThrowIfNotActive()
    {
        if (_state != TransactionState.Active)
        {
            throw new InvalidOperationException($"The write transaction is {_state.ToString().ToLowerInvariant()}; start a new one.");
        }
    }
}
