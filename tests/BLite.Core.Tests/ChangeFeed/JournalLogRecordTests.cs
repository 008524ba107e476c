using System.Buffers.Binary;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// The journal's events travel in their commit's log record (a record frame of the WAL) and reach
/// the journal tree when a checkpoint folds them (docs/changefeed.md, "What it costs a writer"):
/// readers see them at once, they survive a crash through the log, and a power cut at any step
/// of the commits and of the fold keeps exactly the acknowledged transactions.
/// </summary>
public sealed class JournalLogRecordTests
{
    private static readonly CollectionDefinition[] Collections = [new("orders", changeFeed: ChangeFeedMode.On), new("plain")];

    [Fact]
    public void A_single_insert_logs_its_event_in_a_record_frame_and_the_checkpoint_folds_it_into_the_tree()
    {
        var disk = new FaultDatabase();
        using var database = DocumentDatabase.Open(disk.Open(new StorageOptions { Durability = Durability.Normal }), Collections);
        var orders = database.GetCollection("orders");
        var plain = database.GetCollection("plain");
        orders.Insert(Order(0));
        plain.Insert(Order(0));

        var withFeed = WalBytesOf(database, () => orders.Insert(Order(1)));
        var withoutFeed = WalBytesOf(database, () => plain.Insert(Order(1)));

        // The event (id and after-image, about 1.1 KB) is far less than one more page frame.
        Assert.InRange(withFeed - withoutFeed, 1000, 2000);
        Assert.Equal(2, database.Storage.PendingLogRecords);
        using (var read = database.BeginRead())
        {
            Assert.Null(ChangeJournal.Open(read, database.Catalog));
        }

        var before = ReadAll(database);
        Assert.Equal([1UL, 2UL], before.Select(e => e.Sequence));

        database.Checkpoint();

        Assert.Equal(0, database.Storage.PendingLogRecords);
        using (var read = database.BeginRead())
        {
            Assert.NotNull(ChangeJournal.Open(read, database.Catalog));
            Assert.Empty(ChangeJournal.UnfoldedRecords(read));
        }

        AssertSameEvents(before, ReadAll(database));
        orders.Insert(Order(2));
        Assert.Equal([1UL, 2UL, 3UL], ReadAll(database).Select(e => e.Sequence));
        CollectionsTestDatabase.AssertValid(database);
    }

    [Fact]
    public void A_reader_whose_snapshot_predates_the_fold_still_reads_the_folded_events()
    {
        using var database = DocumentDatabase.OpenInMemory(new StorageOptions { Durability = Durability.Normal }, Collections);
        var orders = database.GetCollection("orders");
        for (var i = 0; i < 3; i++)
        {
            orders.Insert(Order(i));
        }

        using var old = database.BeginRead();
        database.Checkpoint();
        orders.Insert(Order(3));

        var seen = new List<JournalEvent>();
        ChangeJournal.Read(old, ChangeJournal.Open(old, database.Catalog), ChangeFeedToken.AfterTransaction(0), 100, seen, database.Storage.Path);
        Assert.Null(ChangeJournal.Open(old, database.Catalog));
        Assert.Equal([1UL, 2UL, 3UL], seen.Select(e => e.Sequence));
        Assert.Equal([1UL, 2UL, 3UL, 4UL], ReadAll(database).Select(e => e.Sequence));
    }

    [Fact]
    public void Events_of_a_killed_process_are_recovered_from_the_log_folded_and_continued()
    {
        var options = new StorageOptions { Durability = Durability.Full };
        var disk = new FaultDatabase();
        var database = DocumentDatabase.Open(disk.Open(options), Collections);
        InsertTransactions(database, 12);
        var before = ReadAll(database);
        Assert.Equal(12, database.Storage.PendingLogRecords);

        // Acknowledged at Full durability: on disk even if the power goes now, before any checkpoint.
        var crashed = disk.AfterPowerLoss(new Random(5));
        Assert.IsType<BLiteException>(Record.Exception(database.Dispose));

        using var reopened = DocumentDatabase.Open(crashed.Open(options), Collections);
        Assert.Equal(12, reopened.Storage.RecoveredLogRecords);
        Assert.Equal(0, reopened.Storage.PendingLogRecords);
        AssertSameEvents(before, ReadAll(reopened));
        reopened.GetCollection("orders").Insert(Order(1000));
        Assert.Equal(13UL, ReadAll(reopened)[^1].Sequence);
        CollectionsTestDatabase.AssertValid(reopened);
    }

    [Fact]
    public void A_power_cut_at_every_step_of_journaled_commits_and_their_checkpoint_keeps_exactly_the_acknowledged_transactions()
    {
        var options = new StorageOptions { Durability = Durability.Full, PageSize = 4096 };

        // A dry run counts the I/O operations of the workload, so every one of them is a cut point.
        var dry = new FaultDatabase();
        using (var dryDatabase = DocumentDatabase.Open(dry.Open(options), Collections))
        {
            InsertTransactions(dryDatabase, 3);
            var start = dry.Injector.MutatingOperations;
            Workload(dryDatabase, [0]);
            var operations = (int)(dry.Injector.MutatingOperations - start);
            Assert.True(operations > 10, $"the workload should take several operations ({operations})");

            var recoveredRecords = new HashSet<bool>();
            for (var cut = 1; cut <= operations; cut++)
            {
                var disk = new FaultDatabase();
                var database = DocumentDatabase.Open(disk.Open(options), Collections);
                InsertTransactions(database, 3);
                disk.Injector.PowerLossAtOperation = disk.Injector.MutatingOperations + cut;
                int[] acknowledged = [3];
                var error = Record.Exception(() => Workload(database, acknowledged));
                Assert.True(disk.Injector.IsPoweredOff, $"power was not cut at operation {cut} of {operations}");
                Assert.True(error is BLiteException or IOException, $"cut {cut}: the workload should fail with the power cut, not with {error}");
                var closing = Record.Exception(database.Dispose);
                Assert.True(closing is null or BLiteException or IOException, $"cut {cut}: closing the dead database threw {closing}");

                using var reopened = DocumentDatabase.Open(disk.AfterPowerLoss(new Random(cut)).Open(options), Collections);
                var events = ReadAll(reopened);
                var last = events.Count == 0 ? 0UL : events[^1].Sequence;
                Assert.True(last >= (ulong)acknowledged[0] && last <= 3 + WorkloadTransactions, $"cut {cut}: the journal ends at {last}, {acknowledged[0]} were acknowledged");
                Assert.Equal(Enumerable.Range(1, (int)last).Select(s => (ulong)s), events.Select(e => e.Sequence).Distinct());
                Assert.True(events[^1].EndsTransaction, $"cut {cut}: the last transaction is not whole");

                // Every journaled insert is in the collection, and nothing else is.
                var ids = events.Select(e => BsonDocument.FromBytes(e.Id, reopened.Fields)["_id"].AsInt32).Order().ToList();
                using (var read = reopened.BeginRead())
                {
                    Assert.Equal(ids.Count, reopened.GetRawCollection("orders").Count(read));
                }

                Assert.Equal(0, reopened.Storage.PendingLogRecords);
                recoveredRecords.Add(reopened.Storage.RecoveredLogRecords > 0);
                CollectionsTestDatabase.AssertValid(reopened);
            }

            // Cuts before the checkpoint restarted the log recovered records from it; later ones found them folded in the file.
            Assert.Equal([false, true], recoveredRecords.Order());
        }
    }

    [Fact]
    public void A_read_only_view_reads_the_events_the_writer_has_not_folded_yet()
    {
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, "feed.blite");
        using var writer = DocumentDatabase.Open(path, new StorageOptions { Durability = Durability.Normal }, Collections);
        InsertTransactions(writer, 4);
        Assert.Equal(4, writer.Storage.PendingLogRecords);

        var (changes, fields) = new ChangeFeedPoller(path).Read(ChangeFeedToken.AfterTransaction(0), 100);
        AssertSameEvents(ReadAll(writer), changes);
        Assert.Equal(0, BsonDocument.FromBytes(changes[0].Id, fields)["_id"].AsInt32);
    }

    [Fact]
    public void A_poller_asked_where_to_start_opens_again_when_the_writer_checkpoints_under_it()
    {
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, "feed.blite");
        using var writer = DocumentDatabase.Open(path, new StorageOptions { Durability = Durability.Normal }, Collections);
        InsertTransactions(writer, 4);
        writer.Checkpoint();
        var opens = 0;
        var poller = new ChangeFeedPoller(path)
        {
            AfterOpen = _ =>
            {
                if (++opens == 1)
                {
                    InsertOne(writer, 1000, events: 1);
                    writer.Checkpoint();
                }
            },
        };

        var now = poller.Resolve(ChangeFeedStart.Now);
        var hasFeed = poller.HasChangeFeed("orders");

        Assert.Equal(2 + 1, opens);
        Assert.Equal(ChangeFeedToken.AfterTransaction(5), now);
        Assert.True(hasFeed);
        Assert.Equal(5UL, writer.GetJournalBounds().LastSequence);
    }

    [Fact]
    public void A_log_of_version_2_holding_page_frames_only_is_still_recovered()
    {
        var options = new StorageOptions { Durability = Durability.Full };
        var disk = new FaultDatabase();
        var database = DocumentDatabase.Open(disk.Open(options), Collections);
        var plain = database.GetCollection("plain");
        for (var i = 0; i < 5; i++)
        {
            plain.Insert(Order(i));
        }

        var crashed = disk.AfterPowerLoss(new Random(2));
        Assert.IsType<BLiteException>(Record.Exception(database.Dispose));
        var wal = crashed.Wal.VisibleContent();
        BinaryPrimitives.WriteUInt32LittleEndian(wal.AsSpan(8), 2);
        BinaryPrimitives.WriteUInt32LittleEndian(wal.AsSpan(36), Crc32C.Compute(wal.AsSpan(0, 36)));

        using var reopened = DocumentDatabase.Open(new FaultDatabase(crashed.File.VisibleContent(), wal).Open(options), Collections);
        Assert.True(reopened.Storage.RecoveredTransactions > 0, "the version 2 log should have been recovered");
        using var read = reopened.BeginRead();
        Assert.Equal(5, reopened.GetRawCollection("plain").Count(read));
    }

    [Fact]
    public void A_damaged_record_frame_that_a_later_frame_records_as_flushed_is_refused_as_corruption()
    {
        var options = new StorageOptions { Durability = Durability.Full };
        var disk = new FaultDatabase();
        var database = DocumentDatabase.Open(disk.Open(options), Collections);
        InsertTransactions(database, 4);
        var crashed = disk.AfterPowerLoss(new Random(3));
        Assert.IsType<BLiteException>(Record.Exception(database.Dispose));

        var wal = crashed.Wal.VisibleContent();
        var record = FirstRecordFrame(wal);
        wal[record + 32 + 30] ^= 0x40;

        var error = Assert.Throws<BLiteCorruptionException>(() => new FaultDatabase(crashed.File.VisibleContent(), wal).Open(options));
        Assert.Contains("records that it had been flushed", error.Message);
    }

    /// <summary>The offset of the first record frame: a frame header naming page 0xFFFFFFFF with the record flag.</summary>
    private static int FirstRecordFrame(byte[] wal)
    {
        for (var at = 40; at + 32 <= wal.Length; at += 8)
        {
            if (BinaryPrimitives.ReadUInt32LittleEndian(wal.AsSpan(at)) == uint.MaxValue && (BinaryPrimitives.ReadUInt32LittleEndian(wal.AsSpan(at + 4)) & 2) != 0)
            {
                return at;
            }
        }

        throw new InvalidOperationException("the log holds no record frame");
    }

    private const int WorkloadTransactions = 4;

    /// <summary>Four journaled transactions, then a checkpoint that folds them; counts in <paramref name="acknowledged"/> the commits that returned.</summary>
    private static void Workload(DocumentDatabase database, int[] acknowledged)
    {
        for (var t = 0; t < WorkloadTransactions; t++)
        {
            InsertOne(database, 100 + (t * 10), events: (t % 2) + 1);
            acknowledged[0]++;
        }

        database.Checkpoint();
    }

    private static void InsertTransactions(DocumentDatabase database, int count)
    {
        for (var t = 0; t < count; t++)
        {
            InsertOne(database, t * 10, events: (t % 3) + 1);
        }
    }

    private static void InsertOne(DocumentDatabase database, int firstId, int events)
    {
        var orders = database.GetCollection("orders");
        using var write = database.BeginWrite();
        for (var e = 0; e < events; e++)
        {
            orders.Insert(write, Order(firstId + e));
        }

        write.Commit();
    }

    private static long WalBytesOf(DocumentDatabase database, Action commit)
    {
        var before = database.Storage.GetStatistics().WalBytes;
        commit();
        return database.Storage.GetStatistics().WalBytes - before;
    }

    private static BsonDocument Order(int id) => new() { ["_id"] = id, ["customer"] = "Ada Lovelace", ["padding"] = new string('x', 1000) };

    private static List<JournalEvent> ReadAll(DocumentDatabase database)
    {
        var events = new List<JournalEvent>();
        using var read = database.BeginRead();
        ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), ChangeFeedToken.AfterTransaction(0), int.MaxValue, events, database.Storage.Path);
        return events;
    }

    private static void AssertSameEvents(List<JournalEvent> expected, List<JournalEvent> actual) =>
        Assert.Equal(
            expected.Select(e => (e.Sequence, e.Index, e.EndsTransaction, e.CommitTime, Convert.ToHexString(e.Id), Convert.ToHexString(e.After ?? []))),
            actual.Select(e => (e.Sequence, e.Index, e.EndsTransaction, e.CommitTime, Convert.ToHexString(e.Id), Convert.ToHexString(e.After ?? []))));
}
