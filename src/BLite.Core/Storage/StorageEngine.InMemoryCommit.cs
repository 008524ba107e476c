using BLite.Core.Storage.Paging;
using BLite.Core.Transactions;

namespace BLite.Core.Storage;

/// <summary>
/// The commit path of an in-memory database (docs/storage.md, "In memory"). A log exists to
/// survive a crash and a checksum to catch a damaged device; memory that dies with the process
/// needs neither. So a commit publishes its page images straight as the newest versions of their
/// pages: no seal, no log frame, no checkpoint copy. The version chains, which give file-backed
/// databases their snapshots, are the whole database here: their images are never evicted, and
/// a version is dropped exactly when no live snapshot sees it.
/// </summary>
/// <remarks>
/// An encrypted in-memory database keeps the logged path: its pages are sealed by the cipher,
/// and what it promises is that the bytes it holds are encrypted.
/// </remarks>
internal sealed partial class StorageEngine
{
    /// <summary>Pages whose chain still holds versions older than the head, kept for some live snapshot.</summary>
    private readonly HashSet<uint> _pagesWithHistory = [];
    private long _historyPrunedAt;

    // 1 while _pagesWithHistory may hold versions kept for some snapshot, or while a commit is
    // deciding which to keep; read without the lock by a reader that ends (see EndRead).
    private int _historyHeld;
    private long _inMemoryCommits;
    private int _commitsWithUnfoldedRecords;

    /// <summary>Whether pages get a trailer (page id and CRC-32C) before they are committed; an in-memory commit skips it.</summary>
    internal bool SealsPages => !_publishesInMemory;

    /// <summary>Commits published as in-memory page versions, with no log frame written.</summary>
    internal long InMemoryCommits => Interlocked.Read(ref _inMemoryCommits);

    /// <summary>Versions held for pages (the head and any kept for older snapshots), for tests of the release.</summary>
    internal int PageVersionCount(uint pageId)
    {
        lock (_sync)
        {
            var count = 0;
            for (var version = _pages.Head(pageId); version is not null; version = version.Older)
            {
                count++;
            }

            return count;
        }
    }

    /// <summary>
    /// <see cref="AppendCommit"/> for an in-memory database: installs the images as the newest
    /// versions and publishes the commit at once, under the lock, so a reader sees all of it or
    /// none of it. Returns 0: there is no log position to wait for. A checkpoint (which here only
    /// folds the change journal's records into its tree and trims it) is due as often as it would
    /// be on a file whose every commit logged one page, so the records waiting in memory and the
    /// journal's retention stay bounded as they do there.
    /// </summary>
    private long PublishInMemory(ReadOnlySpan<uint> pageIds, ReadOnlySpan<byte[]> images, in CounterChanges counters, out bool checkpointDue, bool bookkeeping, ReadOnlyMemory<byte> logRecord)
    {
        lock (_sync)
        {
            var seq = _writtenSeq + 1;
            for (var i = 0; i < pageIds.Length; i++)
            {
                _pages.Push(pageIds[i], seq, PageVersion.InMemoryOnly, images[i]);
            }

            PushCounters(counters, seq);
            PushLogRecord(logRecord, seq);
            NotePageCount(pageIds, seq);
            if (!logRecord.IsEmpty)
            {
                _commitsWithUnfoldedRecords++;
            }

            _writtenSeq = seq;
            Publish(seq);
            _inMemoryCommits++;
            if (!bookkeeping)
            {
                _commits++;
            }

            ReleaseUnseenVersions(pageIds);
            checkpointDue = (long)_commitsWithUnfoldedRecords * Wal.WalFormat.FrameSize(PageSize) >= Options.WalCheckpointThresholdBytes;
        }

        return 0;
    }

    /// <summary>
    /// Drops every version no live snapshot sees: of the pages this commit wrote, and, once the
    /// oldest snapshot has moved on (a reader ended), of the pages earlier commits left with
    /// versions for it. Without readers each page keeps only its head; under a long reader, at
    /// most the head and the versions live snapshots see. Call under _sync.
    /// </summary>
    private void ReleaseUnseenVersions(ReadOnlySpan<uint> pageIds)
    {
        // Raised with a full fence before the readers' counts are read: a reader whose end this
        // commit misses (it still counts here and keeps versions for it) then sees the flag after
        // its own decrement and releases them itself (the same store-then-load pairing as the
        // lock-free registration); a reader in a thread's slot ends without a fence, so the first
        // look at the slots after raising the flag makes sure of them (SlotsForPruning).
        Interlocked.Exchange(ref _historyHeld, 1);
        _slotsUnsettled = true;
        var oldestLive = OldestLiveSnapshot();
        long[]? live = null;
        foreach (var pageId in pageIds)
        {
            _pages.DropHidden(pageId, oldestLive);
            var head = _pages.Head(pageId)!;
            if (head.Older is null)
            {
                continue;
            }

            // Versions between the oldest snapshot's and the head are seen only by the snapshots in between.
            if (head.Older.Older is not null)
            {
                live ??= LiveSnapshots();
                _pages.Prune(pageId, live);
            }

            if (head.Older is not null)
            {
                _pagesWithHistory.Add(pageId);
            }
        }

        ReleaseHistory(oldestLive, live);
    }

    /// <summary>
    /// Once the oldest live snapshot has moved past the one the last release saw, prunes every
    /// page that kept versions for older snapshots. Versions kept only for a snapshot between
    /// two live ones go when the oldest moves past them or their page is next written. Call under _sync.
    /// </summary>
    private void ReleaseHistory(long oldestLive, long[]? live)
    {
        if (_pagesWithHistory.Count > 0 && oldestLive > _historyPrunedAt)
        {
            var snapshots = live ?? LiveSnapshots();
            _pagesWithHistory.RemoveWhere(pageId =>
            {
                _pages.Prune(pageId, snapshots);
                return _pages.Head(pageId)?.Older is null;
            });
            _historyPrunedAt = oldestLive;
        }

        Volatile.Write(ref _historyHeld, _pagesWithHistory.Count > 0 ? 1 : 0);
    }

    /// <summary>
    /// Run by the last reader of a snapshot no longer published: releases at once what only that
    /// snapshot (and older, ended ones) kept, rather than at the next commit, so memory held for a
    /// long reader returns when it ends even if no write follows. Call under _sync.
    /// </summary>
    private void ReleaseHistoryAfterRead()
    {
        if (!_disposed && _pagesWithHistory.Count > 0)
        {
            ReleaseHistory(OldestLiveSnapshot(), null);
        }
    }

    /// <summary>
    /// What a read finds when an in-memory database has no version of a page its snapshot counts
    /// and its device does not hold the page either (it holds only what a database opened on
    /// caller-supplied devices brought with it): its pages live only in the version chains and
    /// carry no seal, so there is no checksum to blame, only a page that no commit wrote.
    /// </summary>
    private BLiteCorruptionException InMemoryPageMissing(uint pageId)
    {
        var exception = new BLiteCorruptionException(Path, pageId, "no commit of this in-memory database holds the page, though the snapshot's page count includes it (in-memory pages exist only as committed versions).");
        Fail(exception);
        return exception;
    }
}
