using System.Buffers.Binary;
using BLite.Core.BTrees;
using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// The durable change journal: one B+ tree per database, rooted in the catalog anchor, holding
/// every committed change of the collections that have a change feed, keyed by commit sequence
/// (layout in <see cref="JournalRecord"/>). The transaction that made the changes journals them
/// just before it is sealed, so they are in the WAL record of the commit: durable exactly when
/// the changes are, and a rollback leaves no trace. They travel as the commit's log record
/// (<see cref="JournalLogRecord"/>) and reach the tree when a checkpoint folds them in; readers
/// see the tree as of their snapshot followed by the records not yet folded as of it. Where the
/// log carries no records (an encrypted database) they go into the tree in the transaction itself.
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
        ulong firstRetained = 1;
        if (tree is not null && tree.TryGet(pages, JournalRecord.StateKey, out var state))
        {
            firstRetained = JournalRecord.ReadState(state.Span).FirstRetained;
        }

        return new JournalBounds(firstRetained, ReadTailWithRecords(pages, tree, filePath).LastSequence);
    }

    /// <summary>As <see cref="ReadTail"/>, counting the transactions not yet folded into the tree as of the reader's snapshot.</summary>
    public static JournalTail ReadTailWithRecords(IPageReader pages, BTree? tree, string filePath)
    {
        var tail = tree is null ? default : ReadTail(pages, tree, filePath);
        var newest = pages switch
        {
            ReadTransaction read => read.SnapshotEngine.LastLogRecordAt(read.Snapshot),
            WriteTransaction write => write.Engine.LastLogRecordAt(long.MaxValue),
            _ => null,
        };

        if (newest is { } record)
        {
            var last = JournalLogRecord.ReadTail(record.Span, filePath);
            if (last.LastSequence > tail.LastSequence)
            {
                return last;
            }
        }

        return tail;
    }

    /// <summary>
    /// The journal's log records the snapshot of <paramref name="pages"/> sees unfolded, oldest
    /// first. After a crash some may already be in the tree (the fold committed, the log was not
    /// yet restarted): readers and the fold skip those by sequence.
    /// </summary>
    public static List<ReadOnlyMemory<byte>> UnfoldedRecords(IPageReader pages) => pages switch
    {
        ReadTransaction read => read.SnapshotEngine.LogRecordsAt(read.Snapshot),
        WriteTransaction write => write.Engine.LogRecordsAt(long.MaxValue),
        _ => [],
    };

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

    /// <summary>
    /// Writes one committing transaction's events, the <paramref name="count"/> event records of
    /// the log record <paramref name="logRecord"/> (built by <see cref="ChangeBatch"/>), into the
    /// tree as the next sequence. Returns the journal's tail after them.
    /// </summary>
    public static JournalTail Append(IPageWriter pages, BTree tree, Span<byte> logRecord, int count, long commitTicks, string filePath)
    {
        var appended = Stamp(logRecord, count, ReadTail(pages, tree, filePath), commitTicks);
        var events = new JournalLogRecord.EventReader(logRecord, filePath);
        for (uint index = 0; events.MoveNext(); index++)
        {
            Insert(pages, tree, appended.LastSequence, index, events.Current);
        }

        return appended;
    }

    /// <summary>
    /// Completes the log record of one committing transaction, built by <see cref="ChangeBatch"/>
    /// (header room, then <paramref name="count"/> events each behind its length), as the
    /// sequence after <paramref name="tail"/>: sets each event's commit time, journal offset and
    /// last-event flag, then the header. Returns the journal's tail after it.
    /// </summary>
    public static JournalTail Stamp(Span<byte> logRecord, int count, JournalTail tail, long commitTicks)
    {
        var offset = tail.NextOffset;
        var at = JournalLogRecord.HeaderSize;
        for (var i = 0; i < count; i++)
        {
            var length = BinaryPrimitives.ReadInt32LittleEndian(logRecord[at..]);
            at += JournalLogRecord.EventPrefixSize;
            JournalRecord.Stamp(logRecord.Slice(at, length), last: i == count - 1, commitTicks, offset);
            offset += JournalRecord.Footprint(length);
            at += length;
        }

        var appended = new JournalTail(tail.LastSequence + 1, offset);
        JournalLogRecord.WriteHeader(logRecord, count, appended.LastSequence, offset);
        return appended;
    }

    /// <summary>
    /// Writes into the tree the transactions of <paramref name="logRecords"/> it does not hold yet
    /// (a fold after a crash may meet some an earlier fold already wrote). Returns how many it wrote.
    /// </summary>
    public static int Fold(IPageWriter pages, BTree tree, IReadOnlyList<ReadOnlyMemory<byte>> logRecords, string filePath)
    {
        var last = ReadTail(pages, tree, filePath).LastSequence;
        var folded = 0;
        foreach (var logRecord in logRecords)
        {
            var sequence = JournalLogRecord.ReadTail(logRecord.Span, filePath).LastSequence;
            if (sequence > last)
            {
                var events = new JournalLogRecord.EventReader(logRecord.Span, filePath);
                for (uint index = 0; events.MoveNext(); index++)
                {
                    Insert(pages, tree, sequence, index, events.Current);
                }

                last = sequence;
                folded++;
            }
        }

        return folded;
    }

    private static void Insert(IPageWriter pages, BTree tree, ulong sequence, uint index, ReadOnlySpan<byte> record)
    {
        Span<byte> key = stackalloc byte[JournalRecord.KeySize];
        if (!tree.Insert(pages, JournalRecord.WriteKey(key, sequence, index), record))
        {
            throw new InvalidOperationException($"Change journal sequence {sequence} is already in use.");
        }
    }

    /// <summary>
    /// Adds to <paramref name="into"/> up to <paramref name="max"/> events after
    /// <paramref name="after"/>, in commit order (it may stop inside a transaction).
    /// </summary>
    public static void Read(IPageReader pages, BTree? tree, ChangeFeedToken after, int max, List<JournalEvent> into, string filePath)
    {
        ulong treeLast = 0;
        if (tree is not null)
        {
            var range = after.IsTransactionEnd
                ? KeyRange.From(JournalRecord.Key(after.Sequence + 1, 0))
                : KeyRange.From(JournalRecord.Key(after.Sequence, after.Index), inclusive: false);
            var cursor = tree.Scan(pages, range);
            while (into.Count < max && cursor.MoveNext())
            {
                var (sequence, index) = JournalRecord.ReadKey(cursor.Key, filePath);
                into.Add(JournalRecord.Decode(sequence, index, cursor.Value.Span, filePath));
            }

            if (into.Count >= max)
            {
                return;
            }

            treeLast = ReadTail(pages, tree, filePath).LastSequence;
        }

        foreach (var logRecord in UnfoldedRecords(pages))
        {
            var sequence = JournalLogRecord.ReadTail(logRecord.Span, filePath).LastSequence;
            if (sequence <= treeLast || sequence < after.FirstNeededSequence)
            {
                continue;
            }

            var events = new JournalLogRecord.EventReader(logRecord.Span, filePath);
            var first = sequence == after.Sequence ? after.Index + 1 : 0;
            for (uint index = 0; events.MoveNext(); index++)
            {
                if (index < first)
                {
                    continue;
                }

                if (into.Count >= max)
                {
                    return;
                }

                into.Add(JournalRecord.Decode(sequence, index, events.Current, filePath));
            }
        }
    }

    /// <summary>
    /// The journal as the snapshot of <paramref name="pages"/> sees it, key by key: the tree's
    /// entries (state and events), then the events of the transactions not yet folded into it.
    /// </summary>
    public static IEnumerable<(byte[] Key, byte[] Value)> Entries(IPageReader pages, BTree? tree, string filePath)
    {
        ulong treeLast = 0;
        if (tree is not null)
        {
            var cursor = tree.Scan(pages, KeyRange.All);
            while (cursor.MoveNext())
            {
                yield return (cursor.Key.ToArray(), cursor.Value.ToArray());
            }

            treeLast = ReadTail(pages, tree, filePath).LastSequence;
        }

        foreach (var logRecord in UnfoldedRecords(pages))
        {
            var sequence = JournalLogRecord.ReadTail(logRecord.Span, filePath).LastSequence;
            if (sequence > treeLast)
            {
                var events = JournalLogRecord.ReadEvents(logRecord.Span, filePath);
                for (var i = 0; i < events.Count; i++)
                {
                    yield return (JournalRecord.Key(sequence, (uint)i), events[i]);
                }
            }
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
