using System.Buffers;
using System.Diagnostics;
using BLite.Core.Diagnostics;
using BLite.Core.Transactions;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    private readonly Queue<(long EndLsn, long Seq, bool Bookkeeping)> _unpublished = new();
    private long _writtenLsn;
    private long _durableLsn;
    private uint _writtenFrames;
    private uint _durableFrames;
    private bool _flushing;
    private TaskCompletionSource? _flushDone;

    private enum FlushRole
    {
        Done,
        Wait,
        Lead,
    }

    /// <summary>
    /// Whether a commit of <paramref name="pages"/> more pages would leave the log at the checkpoint
    /// threshold, so the commit runs a checkpoint. Read by the writer-slot holder, whose commit is
    /// the only one that can move the log.
    /// </summary>
    internal bool CommitReachesCheckpoint(int pages) =>
        _wal.End + ((long)pages * Wal.WalFormat.FrameSize(PageSize)) >= Options.WalCheckpointThresholdBytes;

    /// <summary>
    /// Appends one transaction's sealed page images to the WAL and installs them as the newest
    /// versions. Called by the writer-slot holder. Returns the log position the commit is durable
    /// at; in Full mode readers see the commit only once a flush reaches that position.
    /// <paramref name="bookkeeping"/> marks the engine's own transactions (the checkpoint's
    /// counters), which the commit statistics do not count. <paramref name="logRecord"/> is the
    /// transaction's log record (see <see cref="SetLogRecordFolder"/>), if it has one.
    /// </summary>
    internal long AppendCommit(ReadOnlySpan<uint> pageIds, ReadOnlySpan<byte[]> images, in CounterChanges counters, out bool checkpointDue, bool bookkeeping = false, ReadOnlyMemory<byte> logRecord = default)
    {
        ThrowIfUnwritable();
        if (_publishesInMemory)
        {
            return PublishInMemory(pageIds, images, counters, out checkpointDue, bookkeeping, logRecord);
        }

        var seq = _writtenSeq + 1;
        uint durableFrames;
        lock (_sync)
        {
            durableFrames = _durableFrames;
        }

        var offsets = ArrayPool<long>.Shared.Rent(pageIds.Length);
        try
        {
            long appended;
            try
            {
                appended = _wal.Append(pageIds, images, logRecord, seq, durableFrames, offsets);
            }
            catch (IOException exception)
            {
                Fail(exception);
                if (!bookkeeping)
                {
                    // Its caller is told. The checkpoint's own transactions tell nobody: the close
                    // must still report the failure, or at Normal it would pass over lost commits.
                    Volatile.Write(ref _failureReported, 1);
                }

                throw new BLiteException($"Commit to database '{Path}' failed: the write-ahead log could not be written ({exception.Message}). The database refuses writes until it is reopened.", exception);
            }

            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.LockWanted = CommitPhaseClock.Now();
            }

            lock (_sync)
            {
                if (CommitPhaseClock.Enabled)
                {
                    CommitPhaseClock.LockEntered = CommitPhaseClock.Now();
                }

                for (var i = 0; i < pageIds.Length; i++)
                {
                    _pages.Push(pageIds[i], seq, offsets[i], images[i]);
                    _walPages.Add(pageIds[i]);
                }

                PushCounters(counters, seq);
                PushLogRecord(logRecord, seq);
                NotePageCount(pageIds, seq);
                _writtenSeq = seq;
                _writtenLsn += appended;
                _writtenFrames = _wal.FrameCount;
                if (!bookkeeping)
                {
                    _commits++;
                }

                if (Options.Durability == Durability.Full)
                {
                    _unpublished.Enqueue((_writtenLsn, seq, bookkeeping));
                }
                else
                {
                    Publish(seq);
                }

                var oldestLive = OldestLiveSnapshot();
                ReadOnlySpan<long> live = default;
                for (var i = 0; i < pageIds.Length; i++)
                {
                    _pages.DropHidden(pageIds[i], oldestLive);

                    // While an older snapshot stays open (a reader, or the background checkpoint's
                    // copy), a page written by every commit would keep a version per commit until
                    // the checkpoint's pruning, each a page image taken from the spare pool. Only
                    // the head and the versions live snapshots see are needed.
                    if (_pages.Head(pageIds[i]) is { Older.Older: not null })
                    {
                        live = live.IsEmpty ? LiveSnapshotsInScratch() : live;
                        _pages.Prune(pageIds[i], live);
                    }
                }
            }

            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.LockLeft = CommitPhaseClock.Now();
            }

            checkpointDue = _wal.End >= Options.WalCheckpointThresholdBytes;
            Volatile.Write(ref _walEndForBackPressure, _wal.End);
            return _writtenLsn;
        }
        finally
        {
            ArrayPool<long>.Shared.Return(offsets);
        }
    }

    /// <summary>
    /// Returns once the WAL is flushed up to <paramref name="lsn"/>. Group commit: whoever finds no
    /// flush running flushes everything written so far; the others wait for that flush and, if it
    /// did not cover them, the next one. N concurrent committers thus share about two flushes.
    /// </summary>
    internal void WaitDurable(long lsn)
    {
        while (true)
        {
            switch (ClaimFlush(lsn, out var wait, out var targetLsn, out var targetFrames))
            {
                case FlushRole.Done:
                    return;
                case FlushRole.Wait:
                    wait!.GetAwaiter().GetResult();
                    break;
                default:
                    LeadFlush(targetLsn, targetFrames);
                    break;
            }
        }
    }

    internal async ValueTask WaitDurableAsync(long lsn, CancellationToken cancellationToken)
    {
        while (true)
        {
            switch (ClaimFlush(lsn, out var wait, out var targetLsn, out var targetFrames))
            {
                case FlushRole.Done:
                    return;
                case FlushRole.Wait:
                    await wait!.WaitAsync(cancellationToken).ConfigureAwait(false);
                    break;
                default:
                    LeadFlush(targetLsn, targetFrames);
                    break;
            }
        }
    }

    internal bool RunsFullDurability => Options.Durability == Durability.Full;

    private FlushRole ClaimFlush(long lsn, out Task? wait, out long targetLsn, out uint targetFrames)
    {
        wait = null;
        targetLsn = 0;
        targetFrames = 0;
        lock (_sync)
        {
            if (_durableLsn >= lsn)
            {
                return FlushRole.Done;
            }

            if (_failure is { } failure)
            {
                ThrowFailed(failure);
            }

            ThrowIfDisposed();
            if (_flushing)
            {
                wait = (_flushDone ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
                return FlushRole.Wait;
            }

            _flushing = true;
            targetLsn = _writtenLsn;
            targetFrames = _writtenFrames;
            return FlushRole.Lead;
        }
    }

    private void LeadFlush(long targetLsn, uint targetFrames)
    {
        Exception? failure = null;
        var started = BLiteTelemetry.FsyncDuration.Enabled ? Stopwatch.GetTimestamp() : 0;
        try
        {
            _walDevice.Flush();
        }
        catch (Exception exception) when (exception is IOException or ObjectDisposedException)
        {
            failure = exception;
        }

        TaskCompletionSource? done;
        lock (_sync)
        {
            _flushing = false;
            done = _flushDone;
            _flushDone = null;
            if (failure is null)
            {
                _durableLsn = Math.Max(_durableLsn, targetLsn);
                _durableFrames = targetFrames;
                var grouped = 0;
                var published = _publishedSeq;
                while (_unpublished.TryPeek(out var commit) && commit.EndLsn <= _durableLsn)
                {
                    published = commit.Seq;
                    _unpublished.Dequeue();
                    grouped += commit.Bookkeeping ? 0 : 1;
                }

                if (published != _publishedSeq)
                {
                    Publish(published);
                }

                RecordFlush(started, grouped);
            }
            else
            {
                Fail(failure);
            }
        }

        done?.SetResult();
        if (failure is not null)
        {
            throw new BLiteException($"Flushing the write-ahead log of database '{Path}' failed ({failure.Message}); the commit may or may not be durable. The database refuses writes until it is reopened.", failure);
        }
    }

    private void RecordFlush(long startedTimestamp, int commits)
    {
        if (startedTimestamp != 0)
        {
            BLiteTelemetry.FsyncDuration.Record(Stopwatch.GetElapsedTime(startedTimestamp).TotalSeconds, TelemetryTags);
        }

        if (BLiteTelemetry.GroupCommitSize.Enabled)
        {
            BLiteTelemetry.GroupCommitSize.Record(commits, TelemetryTags);
        }
    }
}
