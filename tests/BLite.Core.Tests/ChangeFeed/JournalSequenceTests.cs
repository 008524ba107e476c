using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// A committing transaction takes its journal sequence from the tail the change feed keeps in
/// memory (docs/changefeed.md, "The journal"), not from the journal itself. These tests check
/// that the remembered tail is always the journal's own, so sequences stay gapless and unique
/// across rollbacks, commits that fail, checkpoints, trims, reopens and power cuts.
/// </summary>
public sealed class JournalSequenceTests
{
    private static readonly CollectionDefinition[] Collections = [new("orders", changeFeed: ChangeFeedMode.On), new("plain")];

    [Fact]
    public void Sequences_stay_gapless_and_unique_across_rollback_failed_commits_reopen_and_power_cut()
    {
        var options = new StorageOptions { Durability = Durability.Full, PageSize = 4096 };
        var committed = new List<int[]>();
        var disk = new FaultDatabase();
        var database = DocumentDatabase.Open(disk.Open(options), Collections);

        Commit(database, committed, [1]);
        Commit(database, committed, [2, 3]);
        Commit(database, committed, [4]);
        AssertJournal(database, committed);

        // A rollback takes no sequence.
        using (var write = database.BeginWrite())
        {
            database.GetCollection("orders").Insert(write, Order(5));
            write.Rollback();
        }

        AssertJournal(database, committed);
        Commit(database, committed, [6]);
        database.Checkpoint();
        Commit(database, committed, [7, 8]);
        database.GetCollection("plain").Insert(Order(1));
        AssertJournal(database, committed);

        // The WAL write of a commit fails: nothing of it is logged, and the reopened database gives
        // the next commit the sequence the failed one would have had.
        disk.Injector.FailWriteAt = disk.Injector.Writes + 1;
        var failed = Record.Exception(() => InsertOne(database, [9]));
        Assert.IsType<BLiteException>(failed);
        Assert.IsType<IOException>(failed.InnerException);
        Assert.NotNull(Record.Exception(() => InsertOne(database, [90])));
        Record.Exception(database.Dispose);
        disk = disk.AfterProcessExit();
        database = DocumentDatabase.Open(disk.Open(options), Collections);
        AssertJournal(database, committed);
        Commit(database, committed, [10]);
        AssertJournal(database, committed);

        // The flush of a commit fails after its WAL write: the commit reached the log, so the process
        // that reopens it finds it, and the next commit follows it.
        disk.Injector.FailFlushAt = disk.Injector.Flushes + 1;
        Assert.IsType<BLiteException>(Record.Exception(() => InsertOne(database, [11, 12])));
        Record.Exception(database.Dispose);
        committed.Add([11, 12]);
        disk = disk.AfterProcessExit();
        database = DocumentDatabase.Open(disk.Open(options), Collections);
        Assert.True(database.Storage.RecoveredLogRecords > 0, "the reopen should have recovered the unflushed commit's record from the log");
        AssertJournal(database, committed);
        Commit(database, committed, [13]);

        // A power cut keeps every acknowledged (Full) commit; the next commit follows the last one.
        var crashed = disk.AfterPowerLoss(new Random(4));
        Record.Exception(database.Dispose);
        using var reopened = DocumentDatabase.Open(crashed.Open(options), Collections);
        AssertJournal(reopened, committed);
        Commit(reopened, committed, [14, 15, 16]);
        reopened.Checkpoint();
        Commit(reopened, committed, [17]);
        AssertJournal(reopened, committed);
        CollectionsTestDatabase.AssertValid(reopened);
    }

    [Fact]
    public void A_commit_that_fails_after_its_events_were_stamped_leaves_the_next_commit_the_same_sequence()
    {
        // No page cache: after a checkpoint every page read reaches the (fault-injecting) file.
        var options = new StorageOptions { Durability = Durability.Normal, PageSize = 4096, CacheBudgetBytes = 0, CheckpointInBackground = false };
        var disk = new FaultDatabase();
        using var database = DocumentDatabase.Open(disk.Open(options), Collections);
        var committed = new List<int[]>();
        var orders = database.GetCollection("orders");
        for (var id = 1; id <= 3; id++)
        {
            InsertBig(database, committed, id);
        }

        // Deleting a document that spans overflow pages starts the free list with them.
        DeleteOne(database, committed, 1);
        database.Checkpoint();
        AssertKnownTailIsTheJournals(database);

        // The next delete frees more pages; the commit puts them on the free list and rewrites the
        // header, reading pages from the file after the transaction's events were stamped with
        // the next sequence. That read fails.
        var tailBefore = database.ChangeFeed.KnownTail;
        Assert.NotNull(tailBefore);
        using (var write = database.BeginWrite())
        {
            Assert.True(orders.Delete(write, 2));
            disk.Injector.FailReadAt = disk.Injector.Reads + 1;
            var error = Assert.IsType<BLiteException>(Record.Exception(write.Commit));
            Assert.IsType<IOException>(error.InnerException);
            Assert.Contains("AppendToLog", error.StackTrace);
            Assert.DoesNotContain("BeforeSeal", error.StackTrace);
        }

        Assert.Equal(tailBefore, database.ChangeFeed.KnownTail);

        Assert.True(disk.Injector.Reads >= disk.Injector.FailReadAt, "the commit should have met the injected read failure");
        Assert.Null(database.Storage.WriteFailure);
        AssertJournal(database, committed);

        // The engine goes on; the failed transaction took no sequence.
        DeleteOne(database, committed, 2);
        InsertBig(database, committed, 4);
        AssertJournal(database, committed);
        CollectionsTestDatabase.AssertValid(database);
    }

    private static void InsertBig(DocumentDatabase database, List<int[]> committed, int id)
    {
        database.GetCollection("orders").Insert(Order(id, 9000));
        committed.Add([id]);
        AssertKnownTailIsTheJournals(database);
    }

    private static void DeleteOne(DocumentDatabase database, List<int[]> committed, int id)
    {
        Assert.True(database.GetCollection("orders").Delete(id));
        committed.Add([id]);
        AssertKnownTailIsTheJournals(database);
    }

    [Fact]
    public void The_remembered_tail_is_the_journals_own_through_random_commits_rollbacks_checkpoints_and_trims()
    {
        // A small log and a small retention: automatic checkpoints fold, and trims empty the journal at times.
        var options = new StorageOptions
        {
            Durability = Durability.Normal,
            PageSize = 4096,
            WalCheckpointThresholdBytes = 64 * 1024,
            ChangeFeedRetention = new ChangeFeedRetention { MaxBytes = 3_000 },
        };
        using var database = DocumentDatabase.Open(new FaultDatabase().Open(options), Collections);
        var orders = database.GetCollection("orders");
        var random = new Random(23);
        var live = new List<int>();
        var committed = new List<int[]>();
        var nextId = 0;
        var (rollbacks, checkpoints, emptied) = (0, 0, 0);
        for (var step = 0; step < 300; step++)
        {
            var checkpointsBefore = database.Storage.GetStatistics().Checkpoints;
            using (var write = database.BeginWrite())
            {
                var ids = new List<int>();
                for (var e = random.Next(1, 4); e > 0; e--)
                {
                    if (live.Count > 0 && random.Next(3) == 0)
                    {
                        var id = live[random.Next(live.Count)];
                        if (random.Next(2) == 0)
                        {
                            Assert.True(orders.Delete(write, id));
                            live.Remove(id);
                        }
                        else
                        {
                            Assert.True(orders.Update(write, Order(id, random.Next(2000))));
                        }

                        ids.Add(id);
                    }
                    else
                    {
                        orders.Insert(write, Order(nextId, random.Next(2000)));
                        live.Add(nextId);
                        ids.Add(nextId++);
                    }
                }

                if (random.Next(6) == 0)
                {
                    write.Rollback();
                    rollbacks++;
                    live = ReadLiveIds(database);
                }
                else
                {
                    write.Commit();
                    committed.Add([.. ids]);
                }
            }

            if (random.Next(25) == 0)
            {
                database.Checkpoint();
            }

            checkpoints += (int)(database.Storage.GetStatistics().Checkpoints - checkpointsBefore);
            var bounds = AssertJournal(database, committed);
            emptied += bounds.FirstRetained > bounds.LastSequence ? 1 : 0;
            AssertKnownTailIsTheJournals(database);
        }

        Assert.True(rollbacks > 10, $"the run should roll back transactions ({rollbacks})");
        Assert.True(checkpoints > 10, $"the run should checkpoint ({checkpoints})");
        Assert.True(committed.Count > 200, $"the run should commit transactions ({committed.Count})");
        Assert.True(emptied > 0, "retention should have emptied the journal at least once, so offsets started again");
        CollectionsTestDatabase.AssertValid(database);
    }

    private static List<int> ReadLiveIds(DocumentDatabase database)
    {
        using var read = database.BeginRead();
        return [.. database.GetCollection("orders").FindAll(read).Select(d => d["_id"].AsInt32)];
    }

    private static void Commit(DocumentDatabase database, List<int[]> committed, int[] ids)
    {
        InsertOne(database, ids);
        committed.Add(ids);
        AssertKnownTailIsTheJournals(database);
    }

    private static void InsertOne(DocumentDatabase database, int[] ids)
    {
        var orders = database.GetCollection("orders");
        using var write = database.BeginWrite();
        foreach (var id in ids)
        {
            orders.Insert(write, Order(id));
        }

        write.Commit();
    }

    /// <summary>The tail the feed remembers, if it knows one, is what the journal itself says (read holding the writer slot).</summary>
    private static void AssertKnownTailIsTheJournals(DocumentDatabase database)
    {
        using var write = database.BeginWrite();
        var known = database.ChangeFeed.KnownTail;
        var journal = ChangeJournal.ReadTailWithRecords(write, ChangeJournal.Open(write, database.Catalog), database.Storage.Path);
        if (known is not null)
        {
            Assert.Equal(journal, known.Value);
        }

        write.Rollback();
    }

    /// <summary>
    /// The journal holds exactly the committed transactions its retention keeps, numbered on from
    /// the first kept, each whole, with its ids in order; read in one snapshot, as a background
    /// checkpoint may trim meanwhile. Returns the bounds it found.
    /// </summary>
    private static JournalBounds AssertJournal(DocumentDatabase database, List<int[]> committed)
    {
        var events = new List<JournalEvent>();
        JournalBounds bounds;
        using (var read = database.BeginRead())
        {
            var tree = ChangeJournal.Open(read, database.Catalog);
            bounds = ChangeJournal.ReadBounds(read, tree, database.Storage.Path);
            ChangeJournal.Read(read, tree, ChangeFeedToken.AfterTransaction(0), int.MaxValue, events, database.Storage.Path);
        }

        Assert.Equal((ulong)committed.Count, bounds.LastSequence);
        var transactions = events.GroupBy(e => e.Sequence).ToList();
        var expected = Enumerable.Range((int)bounds.FirstRetained, committed.Count - (int)bounds.FirstRetained + 1);
        Assert.Equal(expected.Select(s => (ulong)s), transactions.Select(t => t.Key));
        foreach (var transaction in transactions)
        {
            var ids = transaction.Select(e => BsonDocument.FromBytes(e.Id, database.Fields)["_id"].AsInt32);
            Assert.Equal(committed[(int)transaction.Key - 1], ids);
            Assert.Equal(transaction.Select((e, i) => i == transaction.Count() - 1), transaction.Select(e => e.EndsTransaction));
        }

        return bounds;
    }

    private static BsonDocument Order(int id, int padding = 300) => new() { ["_id"] = id, ["padding"] = new string('x', padding) };
}
