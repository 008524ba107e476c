using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// Retention by size reads only the journal offsets of the transactions it drops (docs/format.md 5):
/// these tests check that the offsets add up to the events' real sizes in every situation a trim
/// meets (overflow events, a journal emptied and started again, a copy with other field ids) and
/// that a trim cut short by a power loss leaves the journal whole, before or after it.
/// </summary>
public sealed class ChangeJournalTrimTests
{
    private static readonly CollectionDefinition[] Orders = [new("orders", changeFeed: ChangeFeedMode.On)];

    [Fact]
    public void Size_retention_keeps_exactly_the_newest_whole_transactions_that_fit()
    {
        const long maxBytes = 40_000;
        using var database = DocumentDatabase.OpenInMemory(RetainBytes(maxBytes), Orders);
        InsertTransactions(database, new Random(17), count: 60, firstId: 0, maxPadding: 3000);
        var before = Transactions(database);
        Assert.Contains(before, t => t.LargestRecord > BTree.MaxCellSize(database.Storage.PagePayloadSize));

        database.Checkpoint();

        var first = FirstThatFits(before, maxBytes);
        Assert.True(first > 1, "the journal should exceed its retention before the trim");
        Assert.Equal(new JournalBounds(first, 60), database.GetJournalBounds());
        Assert.Equal(before.Where(t => t.Sequence >= first), Transactions(database));
        CollectionsTestDatabase.AssertValid(database);
    }

    [Fact]
    public void Age_retention_drops_the_transactions_committed_before_the_cutoff_and_keeps_the_rest()
    {
        var retention = new ChangeFeedRetention { MaxAge = TimeSpan.FromHours(1) };
        using var database = DocumentDatabase.OpenInMemory(new StorageOptions { Durability = Durability.Normal, ChangeFeedRetention = retention }, Orders);
        InsertTransactions(database, new Random(8), count: 12, firstId: 0, maxPadding: 3000);
        var times = CommitTimes(database);
        var cutoff = times[7];

        // The checkpoint folds the events into the tree (none is an hour old yet), for the trim below to find them there.
        database.Checkpoint();
        Assert.Equal(0, database.Storage.PendingLogRecords);
        using (var write = database.BeginWrite())
        {
            var dropped = ChangeJournal.Trim(write, ChangeJournal.Open(write, database.Catalog)!, retention, cutoff + retention.MaxAge, database.Storage.Path);
            write.Commit();
            Assert.Equal(times.Count(t => t.Value < cutoff), dropped);
        }

        var first = times.First(t => t.Value >= cutoff).Key;
        Assert.True(first > 1, "some transactions should be older than the cutoff");
        Assert.Equal(new JournalBounds(first, 12), database.GetJournalBounds());
        Assert.Equal(times.Where(t => t.Key >= first), CommitTimes(database));
    }

    [Fact]
    public async Task A_journal_emptied_by_a_trim_counts_again_from_zero_and_resumes_after_it()
    {
        const long maxBytes = 12_000;
        using var database = DocumentDatabase.OpenInMemory(RetainBytes(maxBytes), Orders);
        var orders = database.GetCollection("orders");
        InsertTransactions(database, new Random(3), count: 5, firstId: 0, maxPadding: 500);
        orders.Insert(new BsonDocument { ["_id"] = 1000, ["padding"] = new string('y', 14_000) });

        // The last transaction alone is larger than the retention: nothing is kept.
        database.Checkpoint();
        Assert.Equal(new JournalBounds(7, 6), database.GetJournalBounds());
        Assert.Empty(Transactions(database));

        InsertTransactions(database, new Random(4), count: 30, firstId: 2000, maxPadding: 1500);
        var refilled = Transactions(database);
        Assert.Equal(0UL, refilled[0].FirstOffset);
        Assert.Equal(Enumerable.Range(7, 30).Select(s => (ulong)s), refilled.Select(t => t.Sequence));

        database.Checkpoint();
        var first = FirstThatFits(refilled, maxBytes);
        Assert.True(first > 7, "the refilled journal should exceed its retention");
        Assert.Equal(new JournalBounds(first, 36), database.GetJournalBounds());

        // A token inside the retention resumes exactly after itself; one before it has expired.
        var events = await ChangeJournalTests.ReadAsync(database, ChangeFeedStart.After(ChangeFeedToken.AfterTransaction(first)), 1);
        Assert.Equal(first + 1, events[0].Sequence);
        Assert.Equal(0U, events[0].Index);
        Assert.Throws<BLiteChangeFeedExpiredException>(() => database.ResolveStart(ChangeFeedToken.AfterTransaction(first - 2)));
    }

    [Fact]
    public void A_copy_with_other_field_ids_recounts_the_offsets_of_its_reencoded_events()
    {
        var source = DocumentDatabase.OpenInMemory(RetainBytes(30_000), Orders);
        using var target = DocumentDatabase.OpenInMemory(RetainBytes(15_000));
        using (source)
        {
            InsertTransactions(source, new Random(5), count: 40, firstId: 0, maxPadding: 2500);
            source.Checkpoint();
            Assert.NotEqual(0UL, Transactions(source)[0].FirstOffset);

            // A field the source never used takes the target's first ids, so every copied event is re-encoded.
            target.GetCollection("other").Insert(new BsonDocument { ["_id"] = 1, ["unrelated"] = 2 });
            using var snapshot = source.BeginRead();
            source.CopyTo(snapshot, target);
            Assert.Equal(Transactions(source).Select(t => t.Sequence), Transactions(target).Select(t => t.Sequence));
        }

        var copied = Transactions(target);
        Assert.Equal(0UL, copied[0].FirstOffset);
        target.Checkpoint();
        var first = FirstThatFits(copied, 15_000);
        Assert.True(first > copied[0].Sequence, "the copy should exceed its own retention");
        Assert.Equal(new JournalBounds(first, 40), target.GetJournalBounds());
        CollectionsTestDatabase.AssertValid(target);
    }

    [Fact]
    public void Power_loss_during_the_fold_and_trim_of_a_checkpoint_leaves_the_journal_whole_and_trimmed()
    {
        const long maxBytes = 20_000;
        var options = new StorageOptions
        {
            Durability = Durability.Full,
            PageSize = 4096,
            ChangeFeedRetention = new ChangeFeedRetention { MaxBytes = maxBytes },
        };

        // A dry run counts the I/O operations of the trim and checkpoint, so every one of them is a cut point.
        var (dry, dryDatabase) = Filled(options);
        var journal = Transactions(dryDatabase);
        var trimmedFirst = FirstThatFits(journal, maxBytes);
        var start = dry.Injector.MutatingOperations;
        dryDatabase.Checkpoint();
        var operations = (int)(dry.Injector.MutatingOperations - start);
        dryDatabase.Dispose();
        Assert.True(trimmedFirst > 1 && operations > 2, $"the trim should drop transactions ({trimmedFirst}) in several operations ({operations})");

        // The checkpoint folds the events of the log records into the tree and trims it in one
        // transaction. A cut before the log restarts leaves the records in the log, and the reopen
        // folds them (again, or for the first time) and trims: either way the journal comes back
        // whole and trimmed. A cut after the restart finds the trimmed journal in the file.
        var outcomes = new HashSet<bool>();
        for (var cut = 1; cut <= operations; cut++)
        {
            var (disk, database) = Filled(options);
            disk.Injector.PowerLossAtOperation = disk.Injector.MutatingOperations + cut;
            var error = Record.Exception(database.Checkpoint);
            Assert.True(disk.Injector.IsPoweredOff, $"power was not cut at operation {cut} of {operations}");
            Assert.True(error is BLiteException or IOException, $"cut {cut}: the checkpoint should fail with the power cut, not with {error}");
            var closing = Record.Exception(database.Dispose);
            Assert.True(closing is null or BLiteException or IOException, $"cut {cut}: closing the dead database threw {closing}");

            using var reopened = DocumentDatabase.Open(disk.AfterPowerLoss(new Random(cut)).Open(options), Orders);
            var bounds = reopened.GetJournalBounds();
            Assert.True(bounds.FirstRetained == trimmedFirst, $"cut {cut}: the journal starts at {bounds.FirstRetained}");
            Assert.Equal(journal.Where(t => t.Sequence >= bounds.FirstRetained), Transactions(reopened));
            Assert.Equal(0, reopened.Storage.PendingLogRecords);
            outcomes.Add(reopened.Storage.RecoveredLogRecords > 0);
            CollectionsTestDatabase.AssertValid(reopened);

            // The reopened journal goes on where it stopped, and trims by the same accounting.
            reopened.GetCollection("orders").Insert(new BsonDocument { ["_id"] = 10_000, ["padding"] = "after the cut" });
            var untrimmed = Transactions(reopened);
            Assert.Equal(journal[^1].Sequence + 1, untrimmed[^1].Sequence);
            reopened.Checkpoint();
            Assert.Equal(FirstThatFits(untrimmed, maxBytes), reopened.GetJournalBounds().FirstRetained);
        }

        Assert.Equal([false, true], outcomes.Order());
    }

    private static StorageOptions RetainBytes(long maxBytes) =>
        new() { Durability = Durability.Normal, ChangeFeedRetention = new ChangeFeedRetention { MaxBytes = maxBytes } };

    private static (FaultDatabase Disk, DocumentDatabase Database) Filled(StorageOptions options)
    {
        var disk = new FaultDatabase();
        var database = DocumentDatabase.Open(disk.Open(options), Orders);
        InsertTransactions(database, new Random(11), count: 30, firstId: 0, maxPadding: 2500);
        return (disk, database);
    }

    private static void InsertTransactions(DocumentDatabase database, Random random, int count, int firstId, int maxPadding)
    {
        var orders = database.GetCollection("orders");
        var id = firstId;
        for (var t = 0; t < count; t++)
        {
            using var write = database.BeginWrite();
            for (var e = random.Next(1, 4); e > 0; e--)
            {
                orders.Insert(write, new BsonDocument { ["_id"] = id++, ["padding"] = new string('x', random.Next(10, maxPadding)) });
            }

            write.Commit();
        }
    }

    /// <summary>The first sequence of the longest run of newest transactions whose events, keys included, fit in <paramref name="maxBytes"/>.</summary>
    private static ulong FirstThatFits(IReadOnlyList<JournalTransaction> transactions, long maxBytes)
    {
        var first = transactions[^1].Sequence + 1;
        long held = 0;
        for (var i = transactions.Count - 1; i >= 0 && held + transactions[i].Bytes <= maxBytes; i--)
        {
            held += transactions[i].Bytes;
            first = transactions[i].Sequence;
        }

        return first;
    }

    /// <summary>The journal's transactions as stored: real sizes from the tree, and the offsets the events carry, checked against each other.</summary>
    private static List<JournalTransaction> Transactions(DocumentDatabase database)
    {
        var transactions = new List<JournalTransaction>();
        using var read = database.BeginRead();
        ulong? expectedOffset = null;
        foreach (var (key, value) in ChangeJournal.Entries(read, ChangeJournal.Open(read, database.Catalog), database.Storage.Path))
        {
            if (key[0] != JournalRecord.EventKeyTag)
            {
                continue;
            }

            var (sequence, index) = JournalRecord.ReadKey(key, database.Storage.Path);
            var (_, offset) = JournalRecord.ReadStamp(value, sequence, index, database.Storage.Path);
            Assert.True(expectedOffset is null || expectedOffset == offset, $"event {sequence}:{index} has offset {offset}, expected {expectedOffset}");
            expectedOffset = offset + JournalRecord.Footprint(value.Length);
            long bytes = JournalRecord.KeySize + value.Length;
            if (index == 0)
            {
                transactions.Add(new JournalTransaction(sequence, offset, bytes, value.Length));
            }
            else
            {
                var last = transactions[^1];
                Assert.Equal(last.Sequence, sequence);
                transactions[^1] = last with { Bytes = last.Bytes + bytes, LargestRecord = Math.Max(last.LargestRecord, value.Length) };
            }
        }

        return transactions;
    }

    private static SortedDictionary<ulong, DateTime> CommitTimes(DocumentDatabase database)
    {
        var times = new SortedDictionary<ulong, DateTime>();
        using var read = database.BeginRead();
        var events = new List<JournalEvent>();
        ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), ChangeFeedToken.AfterTransaction(0), int.MaxValue, events, database.Storage.Path);
        foreach (var change in events)
        {
            times[change.Sequence] = change.CommitTime;
        }

        return times;
    }

    private sealed record JournalTransaction(ulong Sequence, ulong FirstOffset, long Bytes, int LargestRecord);
}
