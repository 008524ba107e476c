using BLite.Core.Storage.Wal;
using BLite.Core.Transactions;

namespace BLite.Core.Storage;

/// <summary>
/// Log records: bytes a layer above the pages commits with a transaction, in record frames of
/// its WAL record, instead of as page images (docs/storage.md, "Log records"). The change
/// journal uses them: a single-document commit then logs its event in a few hundred bytes, not
/// in the journal's 8 KiB leaf and its splits. Until a checkpoint the records live here, in
/// memory, versioned by commit like page images, and readers see those their snapshot holds.
/// A checkpoint first runs the folder in a small transaction of its own, which writes them into
/// pages (the journal tree), and only then copies the log; recovery reads them back from the
/// log and keeps the log until the folder has run. So a record is durable exactly when its
/// commit is, whatever step a crash interrupts.
/// </summary>
internal sealed partial class StorageEngine
{
    private readonly List<LogRecordVersion> _logRecords = [];
    private Action<WriteTransaction, IReadOnlyList<ReadOnlyMemory<byte>>>? _logRecordFolder;
    private Action<ReadOnlyMemory<byte>>? _logRecordReleaser;
    private bool _recoveryFoldPending;

    /// <summary>
    /// Whether commits may carry log records. An encrypted log seals frames of one fixed size
    /// (its authentication binds each frame's index), so encrypted databases keep writing what
    /// would be records as pages in the transaction itself.
    /// </summary>
    internal bool CarriesLogRecords => _file is not Encryption.EncryptedFileDevice && !Options.ReadOnly;

    /// <summary>
    /// Registers the routine that writes log records into pages, run in a transaction of its own
    /// before every checkpoint, and the one told when a committed record is dropped from memory
    /// (folded, and seen by no snapshot any more), so its owner may reuse the bytes. Both run
    /// under the writer slot; the releaser also under the engine's lock, so it must be brief.
    /// </summary>
    internal void SetLogRecordFolder(Action<WriteTransaction, IReadOnlyList<ReadOnlyMemory<byte>>> fold, Action<ReadOnlyMemory<byte>> release)
    {
        ArgumentNullException.ThrowIfNull(fold);
        ArgumentNullException.ThrowIfNull(release);
        _logRecordFolder = fold;
        _logRecordReleaser = release;
    }

    /// <summary>
    /// The records of the commits <paramref name="snapshot"/> sees that were not folded into pages
    /// as of it, in commit order (long.MaxValue: every committed one, as the writer sees them).
    /// </summary>
    internal List<ReadOnlyMemory<byte>> LogRecordsAt(long snapshot)
    {
        var visible = new List<ReadOnlyMemory<byte>>();
        lock (_sync)
        {
            foreach (var record in _logRecords)
            {
                if (record.IsVisibleAt(snapshot))
                {
                    visible.Add(record.Payload);
                }
            }
        }

        return visible;
    }

    /// <summary>
    /// The newest of <see cref="LogRecordsAt"/>, or null; found from the end, so a committing
    /// writer pays the same whatever the number of records waiting for the checkpoint.
    /// </summary>
    internal ReadOnlyMemory<byte>? LastLogRecordAt(long snapshot)
    {
        lock (_sync)
        {
            for (var i = _logRecords.Count - 1; i >= 0; i--)
            {
                var record = _logRecords[i];
                if (record.IsVisibleAt(snapshot))
                {
                    return record.Payload;
                }

                if (record.Seq <= snapshot)
                {
                    // Records before it are older still and folded no later: none is visible.
                    return null;
                }
            }
        }

        return null;
    }

    /// <summary>Transactions with log records the open recovered from the log (0 after a clean close).</summary>
    internal int RecoveredLogRecords { get; private set; }

    /// <summary>Unfolded log records in memory (for tests and the benchmark).</summary>
    internal int PendingLogRecords
    {
        get
        {
            lock (_sync)
            {
                return _logRecords.Count(record => record.FoldedAt == long.MaxValue);
            }
        }
    }

    /// <summary>
    /// Runs after an open that recovered log records: the checkpoint recovery deferred, now that
    /// the folder is registered, so the records reach pages before the log restarts.
    /// </summary>
    internal void CompleteRecovery()
    {
        if (_recoveryFoldPending && !Options.ReadOnly)
        {
            _recoveryFoldPending = false;
            Checkpoint();
        }
    }

    /// <summary>Installs a commit's record and drops those folded before the oldest live snapshot. Call under _sync.</summary>
    private void PushLogRecord(ReadOnlyMemory<byte> payload, long seq)
    {
        if (!payload.IsEmpty)
        {
            _logRecords.Add(new LogRecordVersion(seq, payload));
        }

        if (_logRecords.Count > 0 && _logRecords[0].FoldedAt != long.MaxValue)
        {
            // Folds mark every unfolded record, so the folded ones are a prefix, oldest first.
            var oldestLive = OldestLiveSnapshot();
            var dropped = 0;
            while (dropped < _logRecords.Count && _logRecords[dropped].FoldedAt <= oldestLive)
            {
                _logRecordReleaser?.Invoke(_logRecords[dropped].Payload);
                dropped++;
            }

            _logRecords.RemoveRange(0, dropped);
        }
    }

    /// <summary>
    /// Folds the unfolded records into pages in a transaction committed before a checkpoint copies
    /// the log. False when records wait and no folder is registered: the checkpoint must then keep
    /// the log, which is their only durable copy. The caller holds the writer slot.
    /// </summary>
    private bool FoldLogRecordsBeforeCheckpoint()
    {
        var unfolded = LogRecordsAt(long.MaxValue);
        if (unfolded.Count == 0)
        {
            return true;
        }

        if (_logRecordFolder is not { } fold)
        {
            return false;
        }

        var transaction = StartNestedWrite();
        fold(transaction, unfolded);
        transaction.Commit();
        lock (_sync)
        {
            for (var i = 0; i < _logRecords.Count; i++)
            {
                if (_logRecords[i].FoldedAt == long.MaxValue)
                {
                    _logRecords[i] = _logRecords[i] with { FoldedAt = _writtenSeq };
                }
            }

            _commitsWithUnfoldedRecords = 0;

            PushLogRecord(default, _writtenSeq);
        }

        return true;
    }

    /// <summary>
    /// Recovery found log records: it keeps the log (cut after its last commit, so appending to it
    /// is safe) instead of checkpointing, until <see cref="CompleteRecovery"/>.
    /// </summary>
    private bool AdoptRecoveredRecords(WalScanResult scan)
    {
        foreach (var record in scan.CommittedRecords)
        {
            _logRecords.Add(new LogRecordVersion(record.Transaction + 1, record.Payload));
        }

        RecoveredLogRecords = _logRecords.Count;
        if (_logRecords.Count == 0 || Options.ReadOnly)
        {
            return false;
        }

        _wal.DiscardRecoveredTail();
        _recoveryFoldPending = true;
        return true;
    }

    // A struct: a commit's record lives until the checkpoint after it, and as an object of its
    // own each would outlive the young GC generations only to be copied into the old one.
    private readonly record struct LogRecordVersion(long Seq, ReadOnlyMemory<byte> Payload)
    {
        /// <summary>The commit whose pages hold the record (snapshots from it on read it there); long.MaxValue until folded.</summary>
        public long FoldedAt { get; init; } = long.MaxValue;

        public bool IsVisibleAt(long snapshot) => Seq <= snapshot && (FoldedAt == long.MaxValue || FoldedAt > snapshot);
    }
}
