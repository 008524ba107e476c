using System.Buffers;
using System.Diagnostics;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Transactions;

internal sealed partial class WriteTransaction
{
    /// <summary>
    /// Makes every change durable (per the engine's <see cref="Durability"/>) and visible to new
    /// readers, atomically. On failure the transaction is over and the exception says why; a
    /// commit whose WAL write succeeded but whose flush failed may or may not survive a reopen.
    /// </summary>
    public void Commit() => CommitCore(synchronous: true, CancellationToken.None).GetAwaiter().GetResult();

    /// <summary>As <see cref="Commit"/>, waiting for the shared flush asynchronously.</summary>
    public ValueTask CommitAsync(CancellationToken cancellationToken = default) =>
        CommitCore(synchronous: false, cancellationToken);

    // One body for both forms: with synchronous set nothing is awaited, so the ValueTask has
    // already completed when Commit reads its result.
    private async ValueTask CommitCore(bool synchronous, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        var lsn = AppendToLog(out var checkpointDue);
        try
        {
            if (lsn > 0 && _engine.RunsFullDurability)
            {
                if (synchronous)
                {
                    _engine.WaitDurable(lsn);
                }
                else
                {
                    await _engine.WaitDurableAsync(lsn, cancellationToken).ConfigureAwait(false);
                }
            }

            if (checkpointDue)
            {
                _engine.CheckpointAfterCommit();
            }

            _state = TransactionState.Committed;
            if (!_nested)
            {
                _engine.RecordCommit(started);
            }

            _participant?.AfterCommit();
            if (lsn > 0 && !_nested && _engine.ChecksPointsInBackground)
            {
                if (_startsBackgroundCheckpoint)
                {
                    _engine.RequestBackgroundCheckpoint();
                }

                // The checkpoint found running may be one that restarted the log before this
                // commit's append and is only ending: its end frees nothing, so the commit waits
                // once more, for one started after it ended. Not a third time: a checkpoint that
                // starts after this commit and still leaves the log full cannot restart it (log
                // records with no folder), and waiting on would free nothing.
                for (var waits = 0; waits < 2 && _engine.BackPressureWait() is { } backPressure; waits++)
                {
                    if (synchronous)
                    {
                        backPressure.GetAwaiter().GetResult();
                    }
                    else
                    {
                        await backPressure.WaitAsync(cancellationToken).ConfigureAwait(false);
                    }
                }
            }
        }
        catch
        {
            _state = TransactionState.Failed;
            throw;
        }
        finally
        {
            if (checkpointDue)
            {
                ReleaseWriterSlot();
            }
        }
    }

    /// <summary>
    /// Folds frees and header changes into the page set, seals every page and appends the
    /// transaction to the WAL. Releases the writer slot unless a checkpoint is due (the caller
    /// then runs it and releases), so the next writer can start while this commit's flush runs.
    /// Returns 0 when there was nothing to write.
    /// </summary>
    private long AppendToLog(out bool checkpointDue)
    {
        ThrowIfNotActive();
        if (CommitPhaseClock.Enabled)
        {
            CommitPhaseClock.AppendStart = CommitPhaseClock.Now();
        }

        if (_participant is not null)
        {
            try
            {
                _participant.BeforeSeal(this);
            }
            catch
            {
                _state = TransactionState.Failed;
                ReleaseWriterSlot();
                throw;
            }
        }

        _state = TransactionState.Committing;
        checkpointDue = false;
        long lsn = 0;
        try
        {
            ReturnFreedPagesToFreeList();
            // A commit that only extends the file leaves page 0 alone: the count follows from the
            // pages it writes (StorageEngine.PageCount.cs), except in a format-1 file.
            if (_header.FreeListHead != _originalHeader.FreeListHead
                || _header.FreePageCount != _originalHeader.FreePageCount
                || (_header.PageCount != _originalHeader.PageCount && _engine.HeaderCarriesPageCount))
            {
                _header.Write(Writable(PageIds.Header));
            }

            if (_dirty.Count > 0)
            {
                lsn = SealAndAppend(out checkpointDue);
                _participant?.AfterAppend();
            }
        }
        catch
        {
            _state = TransactionState.Failed;
            ReleaseWriterSlot();
            throw;
        }

        if (!checkpointDue)
        {
            ReleaseWriterSlot();
        }

        if (lsn == 0)
        {
            _state = TransactionState.Committed;
        }

        return lsn;
    }

    private long SealAndAppend(out bool checkpointDue)
    {
        var count = _dirty.Count;
        var pageIds = ArrayPool<uint>.Shared.Rent(count);
        var images = ArrayPool<byte[]>.Shared.Rent(count);
        try
        {
            var i = 0;
            foreach (var (pageId, image) in _dirty)
            {
                pageIds[i] = pageId;
                images[i] = image;
                i++;
            }

            // Frames go out in page-id order, so the layout of a transaction in the log is deterministic.
            Array.Sort(pageIds, images, 0, count);
            if (_engine.SealsPages)
            {
                for (i = 0; i < count; i++)
                {
                    PageLayout.Seal(images[i], pageIds[i]);
                }
            }

            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.Sealed = CommitPhaseClock.Now();
                CommitPhaseClock.PageCount = count;
                for (i = 0; i < Math.Min(count, 8); i++)
                {
                    CommitPhaseClock.PageIds[i] = pageIds[i];
                }
            }

            var lsn = _engine.AppendCommit(pageIds.AsSpan(0, count), images.AsSpan(0, count), _counters, out checkpointDue, bookkeeping: _nested, LogRecord);
            checkpointDue &= !_nested;
            if (checkpointDue && lsn > 0 && _engine.ChecksPointsInBackground)
            {
                // The checkpoint runs on its own task once this commit is durable; the slot is released as usual.
                // An in-memory commit (no log position) runs its checkpoint, a fold with nothing to copy, inline.
                _startsBackgroundCheckpoint = true;
                checkpointDue = false;
            }

            return lsn;
        }
        finally
        {
            ArrayPool<uint>.Shared.Return(pageIds);
            ArrayPool<byte[]>.Shared.Return(images, clearArray: true);
        }
    }

    private void ReturnFreedPagesToFreeList()
    {
        if (_freedInOrder is null)
        {
            return;
        }

        var capacity = FreeListTrunk.Capacity(PagePayloadSize);
        foreach (var pageId in _freedInOrder)
        {
            var headId = _header.FreeListHead;
            if (headId != 0)
            {
                var trunk = Writable(headId).AsSpan(0, PagePayloadSize);
                if (FreeListTrunk.Count(trunk) < capacity)
                {
                    FreeListTrunk.Push(trunk, pageId);
                    _header.FreePageCount++;
                    continue;
                }
            }

            // The head trunk is full (or there is none): the freed page becomes the new head trunk.
            var image = ZeroedImage();
            FreeListTrunk.Initialize(image.AsSpan(0, PagePayloadSize), headId);
            _dirty[pageId] = image;
            _header.FreeListHead = pageId;
            _header.FreePageCount++;
        }
    }
}
