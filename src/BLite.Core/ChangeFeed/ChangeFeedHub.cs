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
    private readonly JournalArena _arena = new();
    private readonly Func<ChangeBatch> _beginBatch;

    // Null while no watcher waits, so a commit that nobody waits for signals for the price of one
    // interlocked exchange and allocates nothing. A watcher installs it before it reads.
    private TaskCompletionSource? _nextCommit;

    // The journal's tail as the last appended journaling commit left it; read and written only by
    // the holder of the writer slot. Null until the first journaling commit after the open reads
    // it from the journal (tree and recovered log records), and again after the journal was
    // written around this hub (a copy into this database).
    private JournalTail? _tail;

    public ChangeFeedHub(CatalogStore catalog, ChangeFeedRetention retention)
    {
        retention.Validate();
        _catalog = catalog;
        var batch = new ChangeBatch(this, _arena);
        _beginBatch = batch.Begin;
        Retention = retention;
    }

    public ChangeFeedRetention Retention { get; }

    /// <summary>
    /// Completes after the next journaled commit; take it before reading, so no commit slips
    /// between. Either a commit's <see cref="Signal"/> finds this task installed and completes
    /// it, or its exchange came first, and then the install (an interlocked exchange reading what
    /// the commit's left) is ordered after the commit, so the read that follows sees the commit.
    /// </summary>
    public Task NextCommit
    {
        get
        {
            var waiting = Volatile.Read(ref _nextCommit);
            if (waiting is null)
            {
                var fresh = NewSignal();
                waiting = Interlocked.CompareExchange(ref _nextCommit, fresh, null) ?? fresh;
            }

            return waiting.Task;
        }
    }

    /// <summary>Runs between a watcher's read of the journal and its wait for the next commit (tests use it to land a commit there).</summary>
    internal Action? BeforeWatcherWaits { get; set; }

    /// <summary>The space the log records of journaled commits live in until the engine drops them.</summary>
    internal JournalArena Arena => _arena;

    /// <summary>
    /// Records a change of the open transaction (an event, <see cref="JournalRecord"/>, of the
    /// collection named <paramref name="collection"/> in UTF-8; an empty image is an absent one);
    /// it reaches the journal only if the transaction commits.
    /// </summary>
    public void Record(IPageWriter pages, ChangeOperation operation, ReadOnlySpan<byte> collection, ReadOnlySpan<byte> id, ReadOnlySpan<byte> after, ReadOnlySpan<byte> before)
    {
        if (pages is not WriteTransaction transaction)
        {
            throw new InvalidOperationException("Changes to a collection with a change feed must be made in a write transaction of its database.");
        }

        transaction.GetOrAddParticipant(_beginBatch).Add(operation, collection, id, after, before);
    }

    /// <summary>The engine's log record releaser (<see cref="StorageEngine.SetLogRecordFolder"/>): no snapshot sees the record any more.</summary>
    public void Release(ReadOnlyMemory<byte> logRecord) => _arena.Release(logRecord);

    /// <summary>
    /// Journals one committing transaction's <paramref name="count"/> events, built in
    /// <paramref name="arena"/> as its log record, under the writer slot. Returns the journal's
    /// tail once the transaction is appended to the log, for <see cref="Appended"/>; until then
    /// the hub's tail is untouched, so a commit that fails leaves the next one the same sequence.
    /// </summary>
    public JournalTail Journal(WriteTransaction transaction, JournalArena arena, int count)
    {
        var path = _catalog.FilePath;
        if (transaction.Engine.CarriesLogRecords)
        {
            // The events travel in the commit's log record; the checkpoint's fold writes them into
            // the tree and trims it (see Fold), which changes no sequence: the tail stays valid.
            _tail ??= ChangeJournal.ReadTailWithRecords(transaction, ChangeJournal.Open(transaction, _catalog), path);
            var appended = ChangeJournal.Stamp(arena.Building, count, _tail.Value, DateTime.UtcNow.Ticks);
            transaction.LogRecord = arena.BuildingMemory;
            return appended;
        }

        var tree = ChangeJournal.OpenOrCreate(transaction, _catalog);
        var tail = ChangeJournal.Append(transaction, tree, arena.Building, count, DateTime.UtcNow.Ticks, path);

        // Retention runs at checkpoint: this commit will run one, so it trims in the same record.
        if (transaction.Engine.CommitReachesCheckpoint(transaction.DirtyPageCount + 1))
        {
            ChangeJournal.Trim(transaction, tree, Retention, DateTime.UtcNow, path);
        }

        return tail;
    }

    /// <summary>The tail the next journaling commit follows, when known; read it holding the writer slot (tests check it against the journal).</summary>
    internal JournalTail? KnownTail => _tail;

    /// <summary>A journaling transaction reached the log (still under the writer slot): the next one follows it.</summary>
    public void Appended(JournalTail tail) => _tail = tail;

    /// <summary>The journal was written without this hub (a copy into it): the next commit reads the tail afresh.</summary>
    public void ForgetTail() => _tail = null;

    /// <summary>
    /// The engine's log record folder (<see cref="StorageEngine.SetLogRecordFolder"/>): writes the
    /// journal's unfolded transactions into the tree, then enforces retention, in the
    /// transaction a checkpoint commits just before it copies the log.
    /// </summary>
    public void Fold(WriteTransaction transaction, IReadOnlyList<ReadOnlyMemory<byte>> logRecords)
    {
        var tree = ChangeJournal.OpenOrCreate(transaction, _catalog);
        ChangeJournal.Fold(transaction, tree, logRecords, _catalog.FilePath);
        TrimUnderWriterSlot(transaction, tree);
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
        var dropped = TrimUnderWriterSlot(write, tree);
        write.Commit();
        return dropped;
    }

    // A trim that empties the journal starts its offsets again at 0 (ChangeJournal.ReadTail), so
    // after any trim the next commit reads the tail afresh: once per checkpoint, not per commit.
    private int TrimUnderWriterSlot(WriteTransaction transaction, BTrees.BTree tree)
    {
        var dropped = ChangeJournal.Trim(transaction, tree, Retention, DateTime.UtcNow, _catalog.FilePath);
        if (dropped > 0)
        {
            _tail = null;
        }

        return dropped;
    }

    /// <summary>Wakes the watchers waiting for a commit; free when none waits.</summary>
    public void Signal() => Interlocked.Exchange(ref _nextCommit, null)?.TrySetResult();

    // Continuations run on the thread pool, never inline on the committing writer's thread.
    private static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
