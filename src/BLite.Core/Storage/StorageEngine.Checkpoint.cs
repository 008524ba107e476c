using System.Buffers;
using System.Diagnostics;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Paging;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    private const int CheckpointBatchPages = 64;

    /// <summary>
    /// The checkpoint, run by the writer-slot holder:
    /// 1. flush the WAL (in Normal mode this is the only flush), so the file is never ahead of it;
    /// 2. pin in memory every page version an active reader still needs and the file is about to lose;
    /// 3. write the newest version of every page in the WAL into the file, then flush the file;
    /// 4. point the version chains at the file and restart the WAL (new generation, flushed header).
    /// A crash before step 4 completes replays the old WAL onto the file again, which is harmless.
    /// Readers are never waited for: step 2 is what lets a checkpoint run under a long reader.
    /// </summary>
    private void CheckpointCore()
    {
        PersistCountersBeforeCheckpoint();
        var folded = FoldLogRecordsBeforeCheckpoint();
        WaitDurable(_writtenLsn);
        if (!folded || _wal.FrameCount == 0)
        {
            return;
        }

        uint[] pages;
        lock (_sync)
        {
            pages = [.. _walPages];
        }

        Array.Sort(pages);
        var started = Stopwatch.GetTimestamp();
        using var activity = BLiteTelemetry.ActivitySource.StartActivity("checkpoint");
        activity?.SetTag("db.namespace", Path);
        try
        {
            PinVersionsForOldReaders(pages);
            CopyVersionsToFile(pages, long.MaxValue);
            RestartLogAfterCopy(pages, started);
        }
        catch (Exception exception) when (exception is IOException or BLiteException)
        {
            throw CheckpointFailed(exception);
        }
    }

    /// <summary>
    /// Step 4, once the file holds the newest version of every page in <paramref name="pages"/>
    /// (all the pages the WAL holds) and is flushed. The caller holds the writer slot.
    /// </summary>
    private void RestartLogAfterCopy(uint[] pages, long started)
    {
        lock (_sync)
        {
            var snapshots = LiveSnapshots();
            foreach (var pageId in pages)
            {
                _pages.Head(pageId)!.WalOffset = PageVersion.InMainFile;
                _pages.Prune(pageId, snapshots);
            }

            _walPages.Clear();
            if (pages.Length > 0)
            {
                _filePageCount = Math.Max(_filePageCount, (long)pages[^1] + 1);
            }

            _walEpoch++;
            _fileEpoch++;
        }

        _wal.Restart(_wal.Generation + 1);
        if (_walDevice.Length > 2 * MaxLogBytes)
        {
            // One huge transaction stretched the log: give the space back, but not after every
            // checkpoint, since overwriting an allocated file is cheaper than growing it again.
            _wal.TruncateToHeader();
        }

        Volatile.Write(ref _walEndForBackPressure, WalFormat.HeaderSize);
        lock (_sync)
        {
            _writtenFrames = 0;
            _durableFrames = 0;
            _checkpoints++;
        }

        RecordCheckpoint(started, pages.Length);
    }

    /// <summary>
    /// At close, once the final checkpoint emptied the log: cuts it back to its header, so a closed
    /// database does not keep the space filled ahead of the appends (the next open fills again).
    /// A log the checkpoint could not empty (log records with no folder) is their only copy and stays.
    /// </summary>
    private void ShrinkLogAtClose()
    {
        if (_wal.FrameCount != 0)
        {
            return;
        }

        try
        {
            _wal.TruncateToHeader();
        }
        catch (IOException exception)
        {
            throw new BLiteException($"Closing database '{Path}': cutting its emptied write-ahead log back to its header failed ({exception.Message}); every commit is in the database file.", exception);
        }
    }

    /// <summary>Appends that found the log file too short and grew it themselves (<see cref="Wal.LogPreallocator"/>).</summary>
    internal long WalGrowingAppends => _wal.Space.GrowingAppends;

    /// <summary>Bytes of zeros written ahead of the log's appends since open.</summary>
    internal long WalZeroFilledBytes => _wal.Space.FilledBytes;

    /// <summary>Pieces of zeros the log's filler started, and the Stopwatch ticks their writes took.</summary>
    internal (long Pieces, long Ticks) WalFillerWork => (_wal.Space.PiecesStarted, _wal.Space.PieceTicks);

    /// <summary>Returns once the log's zero-filling ahead has caught up with the appends (tests).</summary>
    internal void WaitForLogPreallocation() => _wal.Space.WaitUntilIdle();

    /// <summary>How far the log may grow before commits wait: the threshold, or with a background checkpoint the back-pressure size.</summary>
    private long MaxLogBytes => ChecksPointsInBackground ? BackPressureFactor * Options.WalCheckpointThresholdBytes : Options.WalCheckpointThresholdBytes;

    /// <summary>Marks the engine failed and returns the exception the checkpoint's caller gets.</summary>
    private BLiteException CheckpointFailed(Exception exception)
    {
        Fail(exception);
        return exception as BLiteException
            ?? new BLiteException($"Checkpoint of database '{Path}' failed ({exception.Message}); the write-ahead log still holds every commit. The database refuses writes until it is reopened.", exception);
    }

    private void RecordCheckpoint(long startedTimestamp, int pages)
    {
        var elapsed = Stopwatch.GetElapsedTime(startedTimestamp);
        if (BLiteTelemetry.CheckpointDuration.Enabled)
        {
            BLiteTelemetry.CheckpointDuration.Record(elapsed.TotalSeconds, TelemetryTags);
        }

        Log.CheckpointCompleted(Path, pages, elapsed.TotalMilliseconds);
    }

    /// <summary>The auto-checkpoint of a commit that filled the WAL past the threshold; the caller holds the writer slot.</summary>
    internal void CheckpointAfterCommit() => CheckpointCore();

    /// <param name="copiedSnapshot">The snapshot the copy writes, which the copier itself holds open: the file will hold what it sees.</param>
    private void PinVersionsForOldReaders(uint[] pages, long copiedSnapshot = long.MaxValue)
    {
        var toPin = new List<(uint PageId, PageVersion? Version)>();
        lock (_sync)
        {
            foreach (var snapshot in RegisteredSnapshots().Distinct())
            {
                if (snapshot == _writtenSeq || snapshot == copiedSnapshot)
                {
                    continue;
                }

                foreach (var pageId in pages)
                {
                    var seen = _pages.Find(pageId, snapshot);
                    if (seen is null ? pageId < _filePageCount : !seen.Pinned && !ReferenceEquals(seen, _pages.Head(pageId)))
                    {
                        toPin.Add((pageId, seen));
                    }
                }
            }
        }

        if (toPin.Count == 0)
        {
            return;
        }

        var fileImagesPinned = new HashSet<uint>();
        foreach (var (pageId, version) in toPin)
        {
            var image = version?.Image ?? ReadForCheckpoint(version is not null && version.WalOffset >= 0, version?.WalOffset ?? 0, pageId);
            lock (_sync)
            {
                _slotsUnsettled = true;
                if (version is not null)
                {
                    _pages.Pin(version, image);
                }
                else if (fileImagesPinned.Add(pageId))
                {
                    _pages.AppendPinnedFileImage(pageId, image);
                }
            }
        }
    }

    /// <summary>
    /// Writes each page's version as of <paramref name="snapshot"/> (long.MaxValue: the newest)
    /// into the file, then flushes the file.
    /// </summary>
    private void CopyVersionsToFile(uint[] pages, long snapshot)
    {
        var segments = new List<ReadOnlyMemory<byte>>(CheckpointBatchPages);
        var rented = new List<byte[]>(CheckpointBatchPages);
        lock (_sync)
        {
            _fileEpoch++;
        }

        try
        {
            var runStart = 0;
            while (runStart < pages.Length)
            {
                // Consecutive page ids go out as one gathered write.
                var runEnd = runStart + 1;
                while (runEnd < pages.Length && runEnd - runStart < CheckpointBatchPages && pages[runEnd] == pages[runEnd - 1] + 1)
                {
                    runEnd++;
                }

                for (var i = runStart; i < runEnd; i++)
                {
                    segments.Add(ImageForCheckpoint(pages[i], snapshot, rented));
                }

                _file.Write((long)pages[runStart] * PageSize, segments);
                segments.Clear();
                foreach (var buffer in rented)
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }

                rented.Clear();
                runStart = runEnd;
            }
        }
        finally
        {
            foreach (var buffer in rented)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }

        _file.Flush();
    }

    private ReadOnlyMemory<byte> ImageForCheckpoint(uint pageId, long snapshot, List<byte[]> rented)
    {
        long walOffset;
        lock (_sync)
        {
            var version = _pages.Find(pageId, snapshot)!;
            if (version.Image is { } cached)
            {
                return cached;
            }

            Debug.Assert(version.WalOffset >= 0, "A page in the WAL has its version as of the checkpoint in the WAL.");
            walOffset = version.WalOffset;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(PageSize);
        rented.Add(buffer);
        var image = buffer.AsSpan(0, PageSize);
        if (_walDevice.Read(walOffset, image) != PageSize || !PageLayout.IsSealed(image, pageId))
        {
            throw PageCorruption(fromWal: true, pageId, image.ToArray());
        }

        return buffer.AsMemory(0, PageSize);
    }

    private byte[] ReadForCheckpoint(bool fromWal, long walOffset, uint pageId)
    {
        var image = new byte[PageSize];
        if (!TryReadImage(fromWal, fromWal ? walOffset : (long)pageId * PageSize, pageId, image))
        {
            throw PageCorruption(fromWal, pageId, image);
        }

        return image;
    }
}
