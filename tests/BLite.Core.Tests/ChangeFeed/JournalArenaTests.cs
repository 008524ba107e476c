using System.Buffers.Binary;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// A commit's events are encoded straight into its log record, in chunks of the change feed's
/// arena that are reused once the engine drops the records they hold (docs/changefeed.md, "What
/// it costs a writer"): the bytes must read back exactly, and no chunk may be reused while a
/// snapshot can still read a record in it.
/// </summary>
public sealed class JournalArenaTests
{
    private static readonly CollectionDefinition[] Orders = [new("orders", changeFeed: ChangeFeedMode.On | ChangeFeedMode.BeforeImages)];

    [Fact]
    public void Events_of_single_and_multi_event_transactions_read_back_exactly_before_and_after_the_fold()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        orders.Insert(Order(1, 100));
        using (var write = test.Database.BeginWrite())
        {
            orders.Insert(write, Order(2, 200));
            orders.Update(write, Order(1, 150));
            orders.Delete(write, 2);
            write.Commit();
        }

        var unfolded = ReadAll(test.Database);
        Assert.Equal([1UL, 2UL, 2UL, 2UL], unfolded.Select(e => e.Sequence));
        Assert.Equal([true, false, false, true], unfolded.Select(e => e.EndsTransaction));
        Assert.Equal([ChangeOperation.Insert, ChangeOperation.Insert, ChangeOperation.Update, ChangeOperation.Delete], unfolded.Select(e => e.Operation));
        Assert.Equal(150, BsonDocument.FromBytes(unfolded[2].After!, test.Database.Fields)["total"].AsInt32);
        Assert.Equal(100, BsonDocument.FromBytes(unfolded[2].Before!, test.Database.Fields)["total"].AsInt32);
        Assert.Equal(200, BsonDocument.FromBytes(unfolded[3].Before!, test.Database.Fields)["total"].AsInt32);
        Assert.Null(unfolded[3].After);
        Assert.Equal(2, test.Database.Storage.PendingLogRecords);

        test.Database.Checkpoint();

        Assert.Equal(0, test.Database.Storage.PendingLogRecords);
        AssertSameEvents(unfolded, ReadAll(test.Database));
        CollectionsTestDatabase.AssertValid(test.Database);
    }

    [Fact]
    public void A_transaction_larger_than_a_chunk_moves_to_a_chunk_of_its_own_and_reads_back_whole()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        orders.Insert(Order(0, 1));
        const int count = 300;
        using (var write = test.Database.BeginWrite())
        {
            for (var i = 1; i <= count; i++)
            {
                orders.Insert(write, Order(i, i));
            }

            write.Commit();
        }

        var events = ReadAll(test.Database);
        Assert.True(count * 1000 > JournalArena.ChunkSize, "the transaction's events should outgrow a chunk");
        Assert.Equal(count + 1, events.Count);
        Assert.Equal(Enumerable.Range(0, count + 1), events.Select(e => BsonDocument.FromBytes(e.Id, test.Database.Fields)["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(0, count + 1).Select(i => Math.Max(i, 1)), events.Select(e => BsonDocument.FromBytes(e.After!, test.Database.Fields)["total"].AsInt32));
        Assert.All(events.Skip(1), e => Assert.Equal(2UL, e.Sequence));
        Assert.Equal(events.Count - 1, events.FindIndex(e => e.Sequence == 2 && e.EndsTransaction));

        test.Database.Checkpoint();
        AssertSameEvents(events, ReadAll(test.Database));
    }

    [Fact]
    public void Chunks_are_reused_across_checkpoints_so_the_arena_stays_bounded()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        var arena = test.Database.ChangeFeed.Arena;
        var id = 0;
        var chunks = new List<int>();
        for (var round = 0; round < 6; round++)
        {
            // Each round's records fill more than one chunk; the checkpoint folds and drops them all.
            for (var i = 0; i < 400; i++)
            {
                orders.Insert(Order(id++, i));
            }

            test.Database.Checkpoint();
            Assert.Equal(0, test.Database.Storage.PendingLogRecords);
            chunks.Add(arena.ChunkCount);
        }

        // The first round takes two chunks; from the second on (it starts inside the first's last
        // chunk) the same three serve every round.
        Assert.Equal([2, 3, 3, 3, 3, 3], chunks);
        Assert.Equal(id, ReadAll(test.Database).Count);
    }

    [Fact]
    public void A_snapshot_that_sees_folded_records_keeps_their_chunk_from_reuse_until_it_ends()
    {
        using var database = DocumentDatabase.OpenInMemory(new StorageOptions { Durability = Durability.Normal }, Orders);
        var orders = database.GetCollection("orders");
        for (var i = 0; i < 300; i++)
        {
            orders.Insert(Order(i, i));
        }

        var old = database.BeginRead();
        var seenByOld = Read(old, database);
        Assert.Equal(300, seenByOld.Count);

        // Fold, then commit and fold enough to have reused every chunk the old snapshot's records were in.
        for (var round = 0; round < 4; round++)
        {
            database.Checkpoint();
            for (var i = 0; i < 300; i++)
            {
                orders.Insert(Order(1000 + (round * 300) + i, -i));
            }
        }

        database.Checkpoint();
        AssertSameEvents(seenByOld, Read(old, database));
        old.Dispose();

        orders.Insert(Order(5000, 1));
        database.Checkpoint();
        Assert.Equal(300 + 1200 + 1, ReadAll(database).Count);
    }

    [Fact]
    public async Task The_background_checkpoint_folds_the_waiting_records_before_its_copy_and_the_later_ones_in_its_finish()
    {
        var disk = new FaultDatabase();
        var options = new StorageOptions { Durability = Durability.Normal, PageSize = 4096, WalCheckpointThresholdBytes = 64 * 4096 };
        var database = DocumentDatabase.Open(disk.Open(options), Orders);
        var orders = database.GetCollection("orders");

        // Holds the background checkpoint in its first flush of the data file: its first copy pass.
        using var release = new ManualResetEventSlim();
        var testThread = Environment.CurrentManagedThreadId;
        var held = 0;
        disk.Injector.OnFlush = device =>
        {
            if (device == "fault.blite" && Environment.CurrentManagedThreadId != testThread && Interlocked.CompareExchange(ref held, 1, 0) == 0)
            {
                release.Wait();
            }
        };

        var id = 0;
        while (database.Storage.BackgroundCheckpointTask.IsCompleted && id < 1000)
        {
            orders.Insert(Order(id++, id));
        }

        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref held) == 1, TimeSpan.FromSeconds(30)), "the background checkpoint never reached its copy");
        for (var i = 0; i < 5; i++)
        {
            orders.Insert(Order(id++, id));
        }

        // The journal tree exists only once a fold has run: this one ran before the copy it is held in.
        using (var read = database.BeginRead())
        {
            Assert.NotNull(ChangeJournal.Open(read, database.Catalog));
        }

        Assert.InRange(database.Storage.PendingLogRecords, 5, id - 1);
        var beforeFinish = ReadAll(database);
        Assert.Equal(Enumerable.Range(1, id).Select(s => (ulong)s), beforeFinish.Select(e => e.Sequence));

        release.Set();
        await database.Storage.BackgroundCheckpointTask;
        disk.Injector.OnFlush = null;

        Assert.Null(database.Storage.WriteFailure);
        Assert.Equal(0, database.Storage.PendingLogRecords);
        AssertSameEvents(beforeFinish, ReadAll(database));
        CollectionsTestDatabase.AssertValid(database);
        database.Dispose();

        using var reopened = DocumentDatabase.Open(disk.AfterProcessExit().Open(options), Orders);
        AssertSameEvents(beforeFinish, ReadAll(reopened));
    }

    [Fact]
    public void A_log_record_whose_events_do_not_fill_it_exactly_is_refused_naming_the_problem()
    {
        using var test = new CollectionsTestDatabase(Orders);
        using (var write = test.Database.BeginWrite())
        {
            test.Collection("orders").Insert(write, Order(1, 1));
            test.Collection("orders").Insert(write, Order(2, 2));
            write.Commit();
        }

        byte[] record;
        using (var read = test.Database.BeginRead())
        {
            record = ChangeJournal.UnfoldedRecords(read).Single().ToArray();
        }

        Assert.Equal(2, Count(record));

        var truncated = record[..^10];
        Assert.Contains("event 1 of 2 does not fit", Refused(truncated));

        var trailing = record.Concat(new byte[3]).ToArray();
        Assert.Contains("3 trailing bytes", Refused(trailing));

        var countless = (byte[])record.Clone();
        BinaryPrimitives.WriteInt32LittleEndian(countless.AsSpan(4), 0);
        Assert.Contains("0 events", Refused(countless));

        var badLength = (byte[])record.Clone();
        BinaryPrimitives.WriteInt32LittleEndian(badLength.AsSpan(JournalLogRecord.HeaderSize), 5);
        Assert.Contains("event 0 of 2 does not fit", Refused(badLength));

        Assert.Contains("3 bytes long", Refused(record[..3]));
    }

    private static int Count(byte[] logRecord)
    {
        var reader = new JournalLogRecord.EventReader(logRecord, "test.blite");
        var count = 0;
        while (reader.MoveNext())
        {
            count++;
        }

        return count;
    }

    private static string Refused(byte[] logRecord) =>
        Assert.Throws<BLiteCorruptionException>(() => Count(logRecord)).Message;

    private static BsonDocument Order(int id, int total) => new() { ["_id"] = id, ["total"] = total, ["padding"] = new string('x', 1000) };

    private static List<JournalEvent> ReadAll(DocumentDatabase database)
    {
        using var read = database.BeginRead();
        return Read(read, database);
    }

    private static List<JournalEvent> Read(Transactions.ReadTransaction read, DocumentDatabase database)
    {
        var events = new List<JournalEvent>();
        ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), ChangeFeedToken.AfterTransaction(0), int.MaxValue, events, database.Storage.Path);
        return events;
    }

    private static void AssertSameEvents(List<JournalEvent> expected, List<JournalEvent> actual) =>
        Assert.Equal(
            expected.Select(e => (e.Sequence, e.Index, e.EndsTransaction, e.CommitTime, e.Operation, Convert.ToHexString(e.Id), Convert.ToHexString(e.After ?? []), Convert.ToHexString(e.Before ?? []))),
            actual.Select(e => (e.Sequence, e.Index, e.EndsTransaction, e.CommitTime, e.Operation, Convert.ToHexString(e.Id), Convert.ToHexString(e.After ?? []), Convert.ToHexString(e.Before ?? []))));
}
