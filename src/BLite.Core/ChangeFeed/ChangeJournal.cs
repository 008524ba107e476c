using BLite.Core.BTrees;
using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// The durable change journal: one B+ tree per database, rooted in the catalog anchor, holding
/// every committed change of the collections that have a change feed, keyed by commit sequence
/// (layout in <see cref="JournalRecord"/>). It is written by the transaction that made the
/// changes, just before that transaction is sealed, so its entries are in the WAL record of the
/// commit: they are durable exactly when the changes are, and a rollback leaves no trace.
/// </summary>
internal static class ChangeJournal
{
    public static BTree? Open(IPageReader pages, CatalogStore catalog)
    {
        var root = catalog.ReadAnchor(pages).JournalRoot;
        return root == 0 ? null : BTree.Open(root);
    }

    public static BTree OpenOrCreate(IPageWriter pages, CatalogStore catalog)
    {
        var anchor = catalog.ReadAnchor(pages);
        if (anchor.JournalRoot != 0)
        {
            return BTree.Open(anchor.JournalRoot);
        }

        var tree = BTree.Create(pages);
        anchor.WithJournalRoot(tree.RootPageId).WriteTo(pages.WritePage(PageIds.Catalog).Span);
        return tree;
    }

    /// <summary>
    /// The oldest sequence still held and the newest committed; (1, 0) for a journal never
    /// written. Sequences start at 1 and never repeat, even after a trim empties the journal.
    /// </summary>
    public static JournalBounds ReadBounds(IPageReader pages, BTree? tree, string filePath)
    {
        if (tree is null)
        {
            return new JournalBounds(1, 0);
        }

        ulong firstRetained = 1;
        ulong last = 0;
        if (tree.TryGet(pages, JournalRecord.StateKey, out var state))
        {
            (firstRetained, last) = JournalRecord.ReadState(state.Span);
        }

        var cursor = tree.Scan(pages, KeyRange.Prefix([JournalRecord.EventKeyTag]), descending: true);
        if (cursor.MoveNext())
        {
            last = Math.Max(last, JournalRecord.ReadKey(cursor.Key, filePath).Sequence);
        }

        return new JournalBounds(firstRetained, last);
    }

    /// <summary>Writes one committing transaction's changes as sequence <paramref name="sequence"/>.</summary>
    public static void Append(IPageWriter pages, BTree tree, ulong sequence, IReadOnlyList<PendingChange> changes, long commitTicks)
    {
        for (var i = 0; i < changes.Count; i++)
        {
            var record = JournalRecord.Encode(changes[i], last: i == changes.Count - 1, commitTicks);
            if (!tree.Insert(pages, JournalRecord.Key(sequence, (uint)i), record))
            {
                throw new InvalidOperationException($"Change journal sequence {sequence} is already in use.");
            }
        }
    }

    /// <summary>
    /// Adds to <paramref name="into"/> up to <paramref name="max"/> events after
    /// <paramref name="after"/>, in commit order (it may stop inside a transaction).
    /// </summary>
    public static void Read(IPageReader pages, BTree? tree, ChangeFeedToken after, int max, List<JournalEvent> into, string filePath)
    {
        if (tree is null)
        {
            return;
        }

        var range = after.IsTransactionEnd
            ? KeyRange.From(JournalRecord.Key(after.Sequence + 1, 0))
            : KeyRange.From(JournalRecord.Key(after.Sequence, after.Index), inclusive: false);
        var cursor = tree.Scan(pages, range);
        while (into.Count < max && cursor.MoveNext())
        {
            var (sequence, index) = JournalRecord.ReadKey(cursor.Key, filePath);
            into.Add(JournalRecord.Decode(sequence, index, cursor.Value.Span, filePath));
        }
    }

    /// <summary>
    /// Drops whole transactions, oldest first, while the journal holds more than the retention's
    /// bytes or its oldest transaction is older than its age. Returns the transactions dropped.
    /// </summary>
    public static int Trim(IPageWriter pages, BTree tree, ChangeFeedRetention retention, DateTime utcNow, string filePath)
    {
        var bounds = ReadBounds(pages, tree, filePath);
        var transactions = new List<(ulong Sequence, uint Events, long Bytes)>();
        long total = 0;
        var cursor = tree.Scan(pages, KeyRange.Prefix([JournalRecord.EventKeyTag]));
        while (cursor.MoveNext())
        {
            var (sequence, _) = JournalRecord.ReadKey(cursor.Key, filePath);
            long bytes = JournalRecord.KeySize + cursor.ValueLength;
            total += bytes;
            if (transactions.Count > 0 && transactions[^1].Sequence == sequence)
            {
                var (s, events, sum) = transactions[^1];
                transactions[^1] = (s, events + 1, sum + bytes);
            }
            else
            {
                transactions.Add((sequence, 1, bytes));
            }
        }

        var cutoff = utcNow - retention.MaxAge;
        var dropped = 0;
        while (dropped < transactions.Count)
        {
            var (sequence, events, bytes) = transactions[dropped];
            if (total <= retention.MaxBytes)
            {
                // Within the size limit: only age can still drop it, and its first event holds its time.
                tree.TryGet(pages, JournalRecord.Key(sequence, 0), out var first);
                if (JournalRecord.ReadCommitTime(first.Span) >= cutoff)
                {
                    break;
                }
            }

            for (uint i = 0; i < events; i++)
            {
                tree.Delete(pages, JournalRecord.Key(sequence, i));
            }

            total -= bytes;
            dropped++;
        }

        if (dropped > 0)
        {
            var firstRetained = dropped < transactions.Count ? transactions[dropped].Sequence : bounds.LastSequence + 1;
            tree.Upsert(pages, JournalRecord.StateKey, JournalRecord.EncodeState(firstRetained, bounds.LastSequence));
        }

        return dropped;
    }
}

/// <summary>What the journal holds: transactions <see cref="FirstRetained"/> .. <see cref="LastSequence"/>.</summary>
internal readonly record struct JournalBounds(ulong FirstRetained, ulong LastSequence)
{
    /// <summary>The position just after the newest committed transaction.</summary>
    public ChangeFeedToken Now => ChangeFeedToken.AfterTransaction(LastSequence);

    /// <summary>The position before the oldest transaction still held.</summary>
    public ChangeFeedToken Oldest => ChangeFeedToken.AfterTransaction(FirstRetained - 1);
}
