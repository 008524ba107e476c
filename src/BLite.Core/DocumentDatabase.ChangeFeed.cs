using System.Runtime.CompilerServices;
using BLite.Core.ChangeFeed;
using BLite.Core.Query;

namespace BLite.Core;

internal sealed partial class DocumentDatabase
{
    /// <summary>Events read from the journal per snapshot: what a watcher holds in memory at most.</summary>
    internal const int WatchBatchSize = 256;

    /// <summary>The oldest and newest transactions the journal holds now.</summary>
    internal JournalBounds GetJournalBounds()
    {
        using var read = BeginRead();
        return ChangeJournal.ReadBounds(read, ChangeJournal.Open(read, Catalog), Storage.Path);
    }

    /// <summary>
    /// The position a watcher starting at <paramref name="start"/> reads after, fixed now (not at
    /// the first read), so <see cref="ChangeFeedStart.Now"/> means the moment of the call. A token
    /// whose changes were trimmed throws <see cref="BLiteChangeFeedExpiredException"/>.
    /// </summary>
    internal ChangeFeedToken ResolveStart(ChangeFeedStart start)
    {
        var bounds = GetJournalBounds();
        switch (start.Kind)
        {
            case ChangeFeedStartKind.Now:
                return bounds.Now;
            case ChangeFeedStartKind.Oldest:
                return bounds.Oldest;
            default:
                var token = start.Token;
                if (token.Sequence > bounds.LastSequence)
                {
                    throw new BLiteException($"Change feed token {token} is ahead of the change journal of '{Storage.Path}', whose last commit sequence is {bounds.LastSequence}: it belongs to another database, or to a newer copy of this one.");
                }

                ThrowIfExpired(token, bounds);
                return token;
        }
    }

    /// <summary>
    /// The journaled changes after <paramref name="after"/> that pass <paramref name="filter"/>, in
    /// commit order, each transaction's events together with the last one marked, waiting for new
    /// commits when caught up. Holds at most one batch in memory and never blocks a writer.
    /// </summary>
    internal async IAsyncEnumerable<JournalEvent> ReadChanges(ChangeFeedToken after, JournalFilter filter, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        var position = after;
        var batch = new List<JournalEvent>(WatchBatchSize);
        FilterEvaluator? predicate = null;
        var predicateFieldCount = -1;
        JournalEvent? held = null;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            ThrowIfDisposed();
            var nextCommit = ChangeFeed.NextCommit;
            batch.Clear();
            using (var read = BeginRead())
            {
                var tree = ChangeJournal.Open(read, Catalog);
                ThrowIfExpired(position, ChangeJournal.ReadBounds(read, tree, Storage.Path));
                ChangeJournal.Read(read, tree, position, WatchBatchSize, batch, Storage.Path);
            }

            // Field names a filter mentions may appear only in later documents: rebuild it when the dictionary grew.
            if (filter.Predicate is not null && predicateFieldCount != Fields.Count)
            {
                predicateFieldCount = Fields.Count;
                predicate = FilterEvaluator.Create(filter.Predicate, Fields, filter.Parameters);
            }

            foreach (var change in batch)
            {
                position = change.Token;
                if (filter.Matches(change, predicate))
                {
                    // One event is held back so the last one delivered of a transaction carries the marker.
                    if (held is not null)
                    {
                        yield return held;
                    }

                    held = change;
                }

                if (change.EndsTransaction && held is not null)
                {
                    yield return held.AsTransactionEnd();
                    held = null;
                }
            }

            if (batch.Count < WatchBatchSize)
            {
                ChangeFeed.BeforeWatcherWaits?.Invoke();
                await nextCommit.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
        }
    }

    private void ThrowIfExpired(ChangeFeedToken position, JournalBounds bounds)
    {
        if (position.FirstNeededSequence < bounds.FirstRetained)
        {
            throw new BLiteChangeFeedExpiredException(position, bounds.FirstRetained, Storage.Options.ChangeFeedRetention.ToString());
        }
    }
}
