using BLite.Core.Transactions;

namespace BLite.Core.Storage;

/// <summary>
/// Counters that change on nearly every write (a collection's document count) kept in memory,
/// versioned by commit like page images, instead of in a page that every write would copy and
/// log. The layer above owns their durable form: a checkpoint first runs its persister in a
/// small transaction of its own (see <see cref="SetCounterPersister"/>), and after a crash it
/// rebuilds whatever was not persisted (docs/storage.md, "Counters").
/// </summary>
internal sealed partial class StorageEngine
{
    private readonly Dictionary<uint, CounterVersion> _counters = [];
    private CounterVersion? _spareCounterVersion;
    private Action<WriteTransaction>? _counterPersister;
    private bool _countersChangedSinceCheckpoint;

    /// <summary>Transactions the open recovered from the log of an engine that did not close (0 after a clean close).</summary>
    internal long RecoveredTransactions { get; private set; }

    /// <summary>
    /// Whether the engine that wrote the database last did not close it: the log held frames or
    /// zeros past its header, which a clean close cuts away. Such an engine may have left stats
    /// pages with a pending count even when no transaction is left to recover: a background
    /// checkpoint's finish copies them so and then empties the log.
    /// </summary>
    internal bool OpenedAfterUncleanClose { get; private set; }

    /// <summary>
    /// Registers the routine a checkpoint runs, inside a write transaction of its own committed
    /// just before the copy, to write the counters into their pages.
    /// </summary>
    internal void SetCounterPersister(Action<WriteTransaction> persist)
    {
        ArgumentNullException.ThrowIfNull(persist);
        _counterPersister = persist;
    }

    /// <summary>The value of counter <paramref name="key"/> as <paramref name="snapshot"/> sees it; false when no commit since open set it.</summary>
    internal bool TryGetCounter(uint key, long snapshot, out long value)
    {
        lock (_sync)
        {
            if (_counters.TryGetValue(key, out var version))
            {
                while (version is not null && version.Seq > snapshot)
                {
                    version = version.Older;
                }

                if (version is not null)
                {
                    value = version.Value;
                    return true;
                }
            }
        }

        value = 0;
        return false;
    }

    /// <summary>Installs a commit's counter values as the newest versions and drops those no live snapshot can see. Call under _sync.</summary>
    private void PushCounters(CounterChanges changes, long seq)
    {
        if (changes.IsEmpty)
        {
            return;
        }

        var oldestLive = OldestLiveSnapshot();
        foreach (var (key, value) in changes)
        {
            var previous = _counters.GetValueOrDefault(key);
            CounterVersion head;
            if (_spareCounterVersion is { } spare)
            {
                _spareCounterVersion = null;
                spare.Reuse(seq, value, previous);
                head = spare;
            }
            else
            {
                head = new CounterVersion(seq, value, previous);
            }

            _counters[key] = head;

            // Keep every version newer than the oldest live snapshot and the one that snapshot sees.
            // While that snapshot stays where the last trim found it (a background checkpoint's
            // copy holds one for its whole pass) the versions at or below it are what that trim
            // left, so there is nothing to drop: walking down to it from the head cost each commit
            // of the pass one step per commit before it (8.6% of an insert loop's samples).
            head.TrimmedAt = previous?.TrimmedAt ?? -1;
            if (head.TrimmedAt == oldestLive)
            {
                continue;
            }

            head.TrimmedAt = oldestLive;
            var version = head;
            while (version.Seq > oldestLive && version.Older is { } older)
            {
                version = older;
            }

            // Versions are only read under _sync, so a dropped one can serve the next commit.
            if (version.Older is { } dropped)
            {
                dropped.Older = null;
                _spareCounterVersion = dropped;
            }

            version.Older = null;
        }

        _countersChangedSinceCheckpoint = true;
    }

    /// <summary>The oldest snapshot a reader holds or may still be given. Call under _sync.</summary>
    private long OldestLiveSnapshot()
    {
        var oldest = Math.Min(_publishedSeq, OldestRegisteredSnapshot());

        if (_unpublished.TryPeek(out var commit))
        {
            oldest = Math.Min(oldest, commit.Seq);
        }

        return oldest;
    }

    /// <summary>
    /// Runs the counter persister in a transaction of its own, committed before a checkpoint copies
    /// the log, so the file the checkpoint writes holds exact counters. The caller holds the writer slot.
    /// </summary>
    private void PersistCountersBeforeCheckpoint()
    {
        bool changed;
        lock (_sync)
        {
            changed = _countersChangedSinceCheckpoint;
        }

        if (!changed || _counterPersister is not { } persist)
        {
            return;
        }

        var transaction = StartNestedWrite();
        persist(transaction);
        transaction.Commit();
        lock (_sync)
        {
            _countersChangedSinceCheckpoint = false;
        }
    }

    private sealed class CounterVersion(long seq, long value, CounterVersion? older)
    {
        public long Seq { get; private set; } = seq;

        public long Value { get; private set; } = value;

        public CounterVersion? Older { get; set; } = older;

        /// <summary>The oldest live snapshot the chain below this head was last trimmed against.</summary>
        public long TrimmedAt { get; set; } = -1;

        public void Reuse(long seq, long value, CounterVersion? older)
        {
            Seq = seq;
            Value = value;
            Older = older;
        }
    }
}
