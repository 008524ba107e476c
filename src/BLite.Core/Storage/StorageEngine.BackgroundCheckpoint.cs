using System.Diagnostics;
using BLite.Core.Diagnostics;

namespace BLite.Core.Storage;

/// <summary>
/// The automatic checkpoint off the commit path (docs/storage.md, "Background checkpoint"). It
/// runs the steps of <see cref="CheckpointCore"/> in two parts: the bulk copy without the writer
/// slot, as of a snapshot it holds like a reader, while commits keep appending; then, holding the
/// slot, the few pages committed meanwhile and the log restart.
/// </summary>
internal sealed partial class StorageEngine
{
    /// <summary>While the pages left to copy outnumber this, another pass runs without the writer slot.</summary>
    private const int CatchUpPages = 64;

    /// <summary>At most this many passes without the slot, so a writer faster than the copy cannot keep the log from restarting.</summary>
    private const int MaxCopyPasses = 4;

    /// <summary>The WAL size, as a multiple of the threshold, at which a commit waits for the running checkpoint.</summary>
    internal const int BackPressureFactor = 4;

    // Whoever copies pages into the file holds it: the background checkpoint for its whole run,
    // an explicit checkpoint, a rekey or the close around theirs. Taken before the writer slot.
    private readonly SemaphoreSlim _checkpointGate = new(1, 1);
    // Waiters get this source's task, never the running one: waiting on a task that has not
    // started yet may run it inline on the waiter's thread (a commit would then checkpoint itself).
    private TaskCompletionSource? _backgroundCheckpoint;
    private long _backgroundCheckpoints;
    private long _backPressureWaits;
    private long _walEndForBackPressure;
    private Exception? _backgroundFailure;
    // Set once a caller has been told the engine refuses writes (a failed commit or a refused
    // one): the close then need not report a background failure, which may only be that
    // failure's consequence met later by the checkpoint.
    private int _failureReported;
    private readonly List<FinishTimes> _finishTimes = [];

    /// <summary>The failure the background checkpoint met, if any (whether or not the close will repeat it).</summary>
    internal Exception? BackgroundFailure => Volatile.Read(ref _backgroundFailure);

    /// <summary>Checkpoints completed by the background task since open.</summary>
    internal long BackgroundCheckpoints => Interlocked.Read(ref _backgroundCheckpoints);

    /// <summary>Commits that waited for the background checkpoint because the log had reached the back-pressure size.</summary>
    internal long BackPressureWaits => Interlocked.Read(ref _backPressureWaits);

    /// <summary>The WAL device's length, including the zeros filled ahead of the appends.</summary>
    internal long WalDeviceLength => _walDevice.Length;

    /// <summary>Where the log's next frame goes (the benchmark's tail profile reads how much each commit appended).</summary>
    internal long WalEnd => Volatile.Read(ref _walEndForBackPressure);

    /// <summary>How long each background checkpoint's finish held the writer slot, by part, oldest first (the benchmark's tail profile reads them).</summary>
    internal FinishTimes[] FinishTimesSinceOpen
    {
        get
        {
            lock (_sync)
            {
                return [.. _finishTimes];
            }
        }
    }

    /// <summary>The running background checkpoint, if any (tests wait on it).</summary>
    internal Task BackgroundCheckpointTask
    {
        get
        {
            lock (_sync)
            {
                return _backgroundCheckpoint?.Task ?? Task.CompletedTask;
            }
        }
    }

    // Encrypted databases too: each copy pass commits the version map beside the commits
    // (docs/encryption.md, "The checkpoint beside commits").
    internal bool ChecksPointsInBackground => Options.CheckpointInBackground;

    /// <summary>Starts the background checkpoint unless one is running. Called by a commit that filled the log to the threshold.</summary>
    internal void RequestBackgroundCheckpoint()
    {
        lock (_sync)
        {
            if (_backgroundCheckpoint is not null || _disposed || _failure is not null)
            {
                return;
            }

            _backgroundCheckpoint = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            ThreadPool.UnsafeQueueUserWorkItem(static engine => engine.RunBackgroundCheckpoint(), this, preferLocal: false);
        }
    }

    /// <summary>
    /// Back-pressure: a committer that finds the log at <see cref="BackPressureFactor"/> times the
    /// threshold gets the running checkpoint to wait for (starting one if none runs), so the log
    /// cannot grow without bound when commits outpace the copy. Null when it need not wait.
    /// Called without the writer slot.
    /// </summary>
    internal Task? BackPressureWait()
    {
        // Unlocked first look: nearly every commit is far below the limit.
        if (Volatile.Read(ref _walEndForBackPressure) < BackPressureFactor * Options.WalCheckpointThresholdBytes)
        {
            return null;
        }

        RequestBackgroundCheckpoint();
        var running = BackgroundCheckpointTask;
        if (running.IsCompleted)
        {
            return null;
        }

        Interlocked.Increment(ref _backPressureWaits);
        return running;
    }

    /// <summary>Waits for the running background checkpoint and keeps another from copying until <see cref="ReleaseCheckpointGate"/>.</summary>
    private void TakeCheckpointGate() => _checkpointGate.Wait();

    private void ReleaseCheckpointGate() => _checkpointGate.Release();

    private void RunBackgroundCheckpoint()
    {
        _checkpointGate.Wait();
        try
        {
            if (IsClosed || WriteFailure is not null)
            {
                return;
            }

            var started = Stopwatch.GetTimestamp();
            FoldBeforeCopy();
            long copiedLsn;
            var copied = CopyWithoutWriterSlot();
            PersistBeforeFinish();
            // At Normal durability nothing else flushes the log: the counters' transaction and
            // every frame the commits appended during the copy would otherwise be flushed by the
            // finish with the writer slot held and commits queued behind it. Flushed here, the
            // finish's own flush covers only what arrives in between, which at Full is the flush
            // a commit already has in flight.
            lock (_sync)
            {
                ThrowIfDisposed();
                copiedLsn = _writtenLsn;
            }

            WaitDurable(copiedLsn);
            _writerSlot.Wait();
            try
            {
                if (!IsClosed && WriteFailure is null)
                {
                    FinishUnderWriterSlot(copied, started);
                    Interlocked.Increment(ref _backgroundCheckpoints);
                }
            }
            finally
            {
                _writerSlot.Release();
            }
        }
        catch (Exception exception)
        {
            // Nothing may escape a thread-pool work item (that ends the process). The engine now
            // refuses writes (Fail): the next commit reports why, and so does the close, which
            // can no longer make the last commits durable.
            Fail(exception);
            Volatile.Write(ref _backgroundFailure, WriteFailure ?? exception);
        }
        finally
        {
            TaskCompletionSource? done;
            lock (_sync)
            {
                done = _backgroundCheckpoint;
                _backgroundCheckpoint = null;
            }

            _checkpointGate.Release();
            done?.SetResult();
        }
    }

    /// <summary>
    /// Folds the log records waiting now (a change journal's events, often the checkpoint's
    /// largest write) before the copy: the fold itself needs the writer slot, but its pages are
    /// then flushed and copied with the others without it, and the finish folds only the records
    /// committed during the copy.
    /// </summary>
    private void FoldBeforeCopy()
    {
        lock (_sync)
        {
            if (_logRecords.Count == 0 || _logRecords[^1].FoldedAt != long.MaxValue)
            {
                return;
            }
        }

        WithWriterSlot(static engine => engine.FoldLogRecordsBeforeCheckpoint());
    }

    /// <summary>
    /// The counters' transaction and the fold of the records committed during the copy, in a
    /// hold of the writer slot of their own before the finish's: at Normal it holds the slot only
    /// for their appends (the flush follows without it); at Full the nested commit's flush is
    /// under it, but a commit now waits for that flush or for the finish's, not for both in a row.
    /// A count changed after this is pending on its stats page (a crash recounts it) until the next
    /// checkpoint persists it, as one changed after the finish always was; a clean close's
    /// checkpoint persists every count under the slot.
    /// </summary>
    private void PersistBeforeFinish() => WithWriterSlot(static engine =>
    {
        engine.PersistCountersBeforeCheckpoint();
        engine.FoldLogRecordsBeforeCheckpoint();
    });

    private void WithWriterSlot(Action<StorageEngine> bookkeeping)
    {
        _writerSlot.Wait();
        try
        {
            if (!IsClosed && WriteFailure is null)
            {
                bookkeeping(this);
            }
        }
        finally
        {
            _writerSlot.Release();
        }
    }

    /// <summary>
    /// Steps 1 to 3 of the checkpoint without the writer slot, in passes: each copies, as of a
    /// snapshot registered like a reader's, the pages the log holds that changed since the
    /// previous pass, and flushes the file, until few are left. Returns the last pass's snapshot.
    /// </summary>
    private long CopyWithoutWriterSlot()
    {
        long copied = 0;
        for (var pass = 0; pass < MaxCopyPasses; pass++)
        {
            long lsn;
            long snapshot;
            uint[] pages;
            lock (_sync)
            {
                ThrowIfDisposed();
                lsn = _writtenLsn;
                snapshot = _writtenSeq;
                pages = PagesChangedSince(copied);
                if (pages.Length == 0 || (pass > 0 && pages.Length <= CatchUpPages))
                {
                    return copied;
                }

                // Registered like a reader, so no version this pass copies is pruned under it.
                RegisterUnderLock(snapshot);
            }

            try
            {
                // The file must never be ahead of the durable log; this also publishes the snapshot.
                WaitDurable(lsn);
                Array.Sort(pages);
                PinVersionsForOldReaders(pages, snapshot);
                CopyVersionsToFile(pages, snapshot);
            }
            finally
            {
                EndLockedRead(snapshot);
            }

            copied = snapshot;
        }

        return copied;
    }

    /// <summary>
    /// The rest, holding the writer slot: the fold of records committed since
    /// <see cref="PersistBeforeFinish"/> (the restart would discard their only copy), the pages
    /// committed since <paramref name="copied"/>, and step 4. Readers that started during the
    /// copy are pinned here. Counters are not persisted again: that would put a transaction and
    /// its flush under the slot, and a count's pending flag keeps it exact without.
    /// </summary>
    private void FinishUnderWriterSlot(long copied, long started)
    {
        var slotTaken = Stopwatch.GetTimestamp();
        var folded = FoldLogRecordsBeforeCheckpoint();
        WaitDurable(_writtenLsn);
        var logDurable = Stopwatch.GetTimestamp();
        if (!folded || _wal.FrameCount == 0)
        {
            return;
        }

        uint[] all;
        uint[] remaining;
        lock (_sync)
        {
            all = [.. _walPages];
            remaining = PagesChangedSince(copied);
        }

        Array.Sort(all);
        Array.Sort(remaining);
        using var activity = BLiteTelemetry.ActivitySource.StartActivity("checkpoint");
        activity?.SetTag("db.namespace", Path);
        try
        {
            PinVersionsForOldReaders(all);
            if (remaining.Length > 0)
            {
                CopyVersionsToFile(remaining, long.MaxValue);
            }

            var fileDurable = Stopwatch.GetTimestamp();
            RestartLogAfterCopy(all, started);
            var restarted = Stopwatch.GetTimestamp();
            lock (_sync)
            {
                if (_finishTimes.Count < MaxFinishTimes)
                {
                    _finishTimes.Add(new FinishTimes(
                        Stopwatch.GetElapsedTime(slotTaken, logDurable),
                        Stopwatch.GetElapsedTime(logDurable, fileDurable),
                        Stopwatch.GetElapsedTime(fileDurable, restarted),
                        remaining.Length,
                        Stopwatch.GetElapsedTime(started, restarted)));
                }
            }
        }
        catch (Exception exception) when (exception is IOException or BLiteException)
        {
            throw CheckpointFailed(exception);
        }
    }

    private const int MaxFinishTimes = 1024;

    /// <summary>
    /// One finish under the writer slot: making the log durable (with a fold's transaction, if
    /// records arrived since the counters'), copying the pages committed since the last pass with
    /// the file's flush, and the log restart; <paramref name="Pages"/> is how many pages that copy wrote;
    /// <paramref name="Whole"/> the checkpoint from its start (the copy passes included) to the restart.
    /// </summary>
    internal readonly record struct FinishTimes(TimeSpan Log, TimeSpan Copy, TimeSpan Restart, int Pages, TimeSpan Whole);

    /// <summary>Pages of the log whose newest version is newer than <paramref name="snapshot"/>. Call under _sync.</summary>
    private uint[] PagesChangedSince(long snapshot)
    {
        var changed = new List<uint>();
        foreach (var pageId in _walPages)
        {
            if (_pages.Head(pageId)!.Seq > snapshot)
            {
                changed.Add(pageId);
            }
        }

        return [.. changed];
    }
}
