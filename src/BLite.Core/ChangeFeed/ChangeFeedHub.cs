using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// One database's change feed: gathers the changes of each write transaction, journals them at
/// commit, folds them into the journal tree and trims it to its retention at checkpoint, and
/// wakes watchers after each journaled commit.
/// Writers never wait for watchers: waking them is completing a task, and watchers read what
/// they need from the journal at their own pace.
/// </summary>
internal sealed class ChangeFeedHub
{
    private readonly CatalogStore _catalog;
    private readonly Func<ChangeBatch> _newBatch;
    private TaskCompletionSource _nextCommit = NewSignal();

    public ChangeFeedHub(CatalogStore catalog, ChangeFeedRetention retention)
    {
        retention.Validate();
        _catalog = catalog;
        _newBatch = () => new ChangeBatch(this);
        Retention = retention;
    }

    public ChangeFeedRetention Retention { get; }

    /// <summary>Completes after the next journaled commit; take it before reading, so no commit slips between.</summary>
    public Task NextCommit => Volatile.Read(ref _nextCommit).Task;

    /// <summary>
    /// Records a change of the open transaction (an event record encoded with
    /// <see cref="JournalLogRecord.FirstEventAt"/> bytes of headroom); it reaches the journal
    /// only if the transaction commits.
    /// </summary>
    public void Record(IPageWriter pages, byte[] record)
    {
        if (pages is not WriteTransaction transaction)
        {
            throw new InvalidOperationException("Changes to a collection with a change feed must be made in a write transaction of its database.");
        }

        transaction.GetOrAddParticipant(_newBatch).Add(record);
    }

    public void Journal(WriteTransaction transaction, List<byte[]> records)
    {
        var path = _catalog.FilePath;
        if (transaction.Engine.CarriesLogRecords)
        {
            // The events travel in the commit's log record; the checkpoint's fold writes them into
            // the tree and trims it (see Fold).
            transaction.LogRecord = ChangeJournal.EncodeForLog(transaction, ChangeJournal.Open(transaction, _catalog), records, DateTime.UtcNow.Ticks, path);
            return;
        }

        var tree = ChangeJournal.OpenOrCreate(transaction, _catalog);
        ChangeJournal.Append(transaction, tree, records, DateTime.UtcNow.Ticks, path);

        // Retention runs at checkpoint: this commit will run one, so it trims in the same record.
        if (transaction.Engine.CommitReachesCheckpoint(transaction.DirtyPageCount + 1))
        {
            ChangeJournal.Trim(transaction, tree, Retention, DateTime.UtcNow, path);
        }
    }

    /// <summary>
    /// The engine's log record folder (<see cref="StorageEngine.SetLogRecordFolder"/>): writes the
    /// journal's unfolded transactions into the tree, then enforces retention, in the
    /// transaction a checkpoint commits just before it copies the log.
    /// </summary>
    public void Fold(WriteTransaction transaction, IReadOnlyList<byte[]> logRecords)
    {
        var tree = ChangeJournal.OpenOrCreate(transaction, _catalog);
        ChangeJournal.Fold(transaction, tree, logRecords, _catalog.FilePath);
        ChangeJournal.Trim(transaction, tree, Retention, DateTime.UtcNow, _catalog.FilePath);
    }

    /// <summary>Trims the journal in its own transaction; used before explicit checkpoints and on close.</summary>
    public int TrimNow(StorageEngine storage)
    {
        using (var read = storage.BeginRead())
        {
            if (ChangeJournal.Open(read, _catalog) is null)
            {
                return 0;
            }
        }

        using var write = storage.BeginWrite();
        var tree = ChangeJournal.Open(write, _catalog)!;
        var dropped = ChangeJournal.Trim(write, tree, Retention, DateTime.UtcNow, _catalog.FilePath);
        write.Commit();
        return dropped;
    }

    public void Signal()
    {
        var fired = Interlocked.Exchange(ref _nextCommit, NewSignal());
        fired.TrySetResult();
    }

    // Continuations run on the thread pool, never inline on the committing writer's thread.
    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
