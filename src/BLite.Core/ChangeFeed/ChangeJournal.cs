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
        if (tree.TryGet(pages, JournalRecord.StateKey, out var state))
        {
            firstRetained = JournalRecord.ReadState(state.Span).FirstRetained;
        }

        return new JournalBounds(firstRetained, ReadTail(pages, tree, filePath).LastSequence);
    }

    /// <summary>
    /// The last committed sequence and the journal offset the next event takes (the end of the
    /// last event; 0 in an empty journal), found with one descent to the last event.
    /// </summary>
    public static JournalTail ReadTail(IPageReader pages, BTree tree, string filePath)
    {
        var cursor = tree.Scan(pages, KeyRange.Prefix([JournalRecord.EventKeyTag]), descending: true);
        if (cursor.MoveNext())
        {
            var (sequence, index) = JournalRecord.ReadKey(cursor.Key, filePath);
            var (_, offset) = ReadStamp(cursor, sequence, index, filePath);
            return new JournalTail(sequence, offset + JournalRecord.Footprint(cursor.ValueLength));
        }

        // Empty: the sequences go on from the last trim's state, and offsets start again at 0.
        var last = tree.TryGet(pages, JournalRecord.StateKey, out var state) ? JournalRecord.ReadState(state.Span).LastSequence : 0;
        return new JournalTail(last, 0);
    }

    /// <summary>Writes one committing transaction's event records (from <see cref="JournalRecord.Encode"/>) as the next sequence.</summary>
    public static void Append(IPageWriter pages, BTree tree, IReadOnlyList<byte[]> records, long commitTicks, string filePath)
    {
        var tail = ReadTail(pages, tree, filePath);
        var sequence = tail.LastSequence + 1;
        var offset = tail.NextOffset;
        for (var i = 0; i < records.Count; i++)
        {
            var record = records[i];
            JournalRecord.Stamp(record, last: i == records.Count - 1, commitTicks, offset);
            if (!tree.Insert(pages, JournalRecord.Key(sequence, (uint)i), record))
            {
                throw new InvalidOperationException($"Change journal sequence {sequence} is already in use.");
            }

            offset += JournalRecord.Footprint(record.Length);
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
    /// The bytes held are the distance between the first event's journal offset and the end of
    /// the last one, so the work is proportional to what is dropped, not to the journal's size.
    /// </summary>
    public static int Trim(IPageWriter pages, BTree tree, ChangeFeedRetention retention, DateTime utcNow, string filePath)
    {
        var tail = ReadTail(pages, tree, filePath);
        var cutoff = utcNow - retention.MaxAge;
        var doomed = new List<byte[]>();
        var dropped = 0;
        var firstRetained = tail.LastSequence + 1;
        var cursor = tree.Scan(pages, KeyRange.Prefix([JournalRecord.EventKeyTag]));
        while (cursor.MoveNext())
        {
            var (sequence, index) = JournalRecord.ReadKey(cursor.Key, filePath);
            if (index == 0)
            {
                // A transaction's first event: keep it and all after it once they fit the retention.
                var (commitTime, offset) = ReadStamp(cursor, sequence, index, filePath);
                if (offset > tail.NextOffset)
                {
                    throw new BLiteCorruptionException(filePath, null, $"change journal event {sequence}:0 has journal offset {offset}, past the journal's end {tail.NextOffset}.");
                }

                if (tail.NextOffset - offset <= (ulong)retention.MaxBytes && commitTime >= cutoff)
                {
                    firstRetained = sequence;
                    break;
                }

                dropped++;
            }

            doomed.Add(cursor.Key.ToArray());
        }

        foreach (var key in doomed)
        {
            tree.Delete(pages, key);
        }

        if (dropped > 0)
        {
            tree.Upsert(pages, JournalRecord.StateKey, JournalRecord.EncodeState(firstRetained, tail.LastSequence));
        }

        return dropped;
    }

    private static (DateTime CommitTime, ulong JournalOffset) ReadStamp(BTreeCursor cursor, ulong sequence, uint index, string filePath)
    {
        Span<byte> header = stackalloc byte[JournalRecord.HeaderSize];
        return JournalRecord.ReadStamp(header[..cursor.CopyValuePrefix(header)], sequence, index, filePath);
    }
}

/// <summary>The newest committed sequence and the journal offset of the next event.</summary>
internal readonly record struct JournalTail(ulong LastSequence, ulong NextOffset);

/// <summary>What the journal holds: transactions <see cref="FirstRetained"/> .. <see cref="LastSequence"/>.</summary>
internal readonly record struct JournalBounds(ulong FirstRetained, ulong LastSequence)
{
    /// <summary>The position just after the newest committed transaction.</summary>
    public ChangeFeedToken Now => ChangeFeedToken.AfterTransaction(LastSequence);

    /// <summary>The position before the oldest transaction still held.</summary>
    public ChangeFeedToken Oldest => ChangeFeedToken.AfterTransaction(FirstRetained - 1);
}
