using System.Diagnostics;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Storage.Paging;
using BLite.Core.Tests.Collections;
using BLite.Core.Transactions;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// An in-memory database commits by publishing its pages as the newest versions, without log
/// frames, seals or checkpoint copies (docs/storage.md, "In memory"): these tests check that the
/// path is taken, that snapshots stay stable across its commits, that a rollback leaves nothing,
/// and that versions are released once no snapshot needs them.
/// </summary>
public sealed class InMemoryCommitTests
{
    private const int Accounts = ConcurrencyTests.Accounts;
    private const long InitialBalance = ConcurrencyTests.InitialBalance;

    [Fact]
    public void In_memory_commits_write_no_log_frame_and_run_no_checkpoint_copy()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        var before = engine.GetStatistics();

        for (var i = 0; i < 200; i++)
        {
            using var tx = engine.BeginWrite();
            SetBalance(tx, pages[i % Accounts], i);
            tx.Commit();
        }

        engine.Checkpoint();
        var after = engine.GetStatistics();
        Assert.Equal(before.InMemoryCommits + 200, after.InMemoryCommits);
        Assert.Equal(before.Commits + 200, after.Commits);
        Assert.Equal(before.WalBytes, after.WalBytes);
        Assert.Equal(before.WalFileBytes, after.WalFileBytes);
        Assert.Equal(0, after.Checkpoints);

        // No page was sealed, and the consistency checker accepts the unsealed pages as they are.
        using (var read = engine.BeginRead())
        {
            Assert.All(pages, page => Assert.False(PageLayout.IsSealed(engine.GetImage(page, read.Snapshot), page)));
        }

        engine.Verify(requireEveryPageOwned: false).ThrowIfInvalid();
    }

    [Fact]
    public void A_file_database_still_logs_its_commits()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = 4096 });
        var pages = CreateAccounts(db.Engine);
        var walBefore = db.Engine.GetStatistics().WalBytes;
        using (var tx = db.Engine.BeginWrite())
        {
            SetBalance(tx, pages[0], 5);
            tx.Commit();
        }

        var after = db.Engine.GetStatistics();
        Assert.Equal(0, after.InMemoryCommits);
        Assert.True(after.WalBytes > walBefore);
        using var read = db.Engine.BeginRead();
        Assert.True(PageLayout.IsSealed(db.Engine.GetImage(pages[0], read.Snapshot), pages[0]));
    }

    [Fact]
    public async Task Readers_keep_their_snapshot_while_in_memory_commits_publish_transfers()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        using var longReader = engine.BeginRead();
        const int transfers = 1500;
        var writerDone = 0;
        var snapshotsChecked = 0;

        var writer = Task.Run(() =>
        {
            var random = new Random(7);
            for (var i = 0; i < transfers; i++)
            {
                using var tx = engine.BeginWrite();
                var from = pages[random.Next(Accounts)];
                var to = pages[random.Next(Accounts)];
                var amount = random.Next(1, 50);
                SetBalance(tx, from, Balance(tx, from) - amount);
                SetBalance(tx, to, Balance(tx, to) + amount);
                tx.Commit();
            }

            Volatile.Write(ref writerDone, 1);
        });

        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(() =>
        {
            do
            {
                using var read = engine.BeginRead();
                Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(read, page)));
                Interlocked.Increment(ref snapshotsChecked);
            }
            while (Volatile.Read(ref writerDone) == 0);
        })).ToArray();

        await Task.WhenAll(readers.Append(writer));

        Assert.True(snapshotsChecked >= readers.Length);
        Assert.All(pages, page => Assert.Equal(InitialBalance, Balance(longReader, page)));
        using var final = engine.BeginRead();
        Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(final, page)));
        Assert.NotEqual(pages.Select(page => InitialBalance), pages.Select(page => Balance(final, page)));
    }

    [Fact]
    public void A_reader_halfway_through_its_sum_sees_none_of_the_commits_published_meanwhile()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        var random = new Random(3);
        for (var round = 0; round < 20; round++)
        {
            using var read = engine.BeginRead();
            var commitsBefore = engine.InMemoryCommits;
            long total = 0;
            for (var i = 0; i < Accounts / 2; i++)
            {
                total += Balance(read, pages[i]);
            }

            // Transfers between both halves, committed while the reader is between its two halves.
            for (var t = 0; t < 10; t++)
            {
                using var tx = engine.BeginWrite();
                var from = pages[random.Next(Accounts / 2)];
                var to = pages[Accounts / 2 + random.Next(Accounts / 2)];
                (from, to) = t % 2 == 0 ? (from, to) : (to, from);
                SetBalance(tx, from, Balance(tx, from) - 7);
                SetBalance(tx, to, Balance(tx, to) + 7);
                tx.Commit();
            }

            for (var i = Accounts / 2; i < Accounts; i++)
            {
                total += Balance(read, pages[i]);
            }

            Assert.Equal(commitsBefore + 10, engine.InMemoryCommits);
            Assert.Equal(Accounts * InitialBalance, total);
        }
    }

    [Fact]
    public void A_rolled_back_in_memory_transaction_leaves_nothing()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        var before = engine.GetStatistics();
        uint pageCount;
        using (var read = engine.BeginRead())
        {
            pageCount = read.PageCount;
        }

        using (var tx = engine.BeginWrite())
        {
            SetBalance(tx, pages[0], 1);
            var added = tx.AllocatePage();
            SetBalance(tx, added, 2);
            tx.FreePage(pages[1]);
            tx.Rollback();
        }

        var after = engine.GetStatistics();
        Assert.Equal(before.InMemoryCommits, after.InMemoryCommits);
        Assert.Equal(before.CachedBytes, after.CachedBytes);
        Assert.Equal(before.TrackedPages, after.TrackedPages);
        Assert.Equal(1, engine.PageVersionCount(pages[0]));
        using (var read = engine.BeginRead())
        {
            Assert.Equal(pageCount, read.PageCount);
            Assert.All(pages, page => Assert.Equal(InitialBalance, Balance(read, page)));
        }

        engine.Verify().ThrowIfInvalid();
    }

    [Fact]
    public void A_unique_violation_in_memory_rolls_back_and_leaves_the_index_and_count_as_they_were()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var users = database.GetCollection("users");
        users.EnsureIndex("byEmail", "email", unique: true);
        users.Insert(new BsonDocument { ["_id"] = 1, ["email"] = "a@x" });
        var commits = database.Storage.InMemoryCommits;

        Assert.Throws<BLiteUniqueConstraintException>(() => users.Insert(new BsonDocument { ["_id"] = 2, ["email"] = "a@x" }));
        using (var write = database.BeginWrite())
        {
            users.Insert(write, new BsonDocument { ["_id"] = 3, ["email"] = "c@x" });
            Assert.Throws<BLiteUniqueConstraintException>(() => users.Insert(write, new BsonDocument { ["_id"] = 4, ["email"] = "c@x" }));
            write.Rollback();
        }

        Assert.Equal(commits, database.Storage.InMemoryCommits);
        Assert.Equal(1, users.Count());
        Assert.Null(users.FindById(2));
        Assert.Null(users.FindById(3));
        Assert.Empty(users.FindByIndex("byEmail", "c@x"));
        users.Insert(new BsonDocument { ["_id"] = 5, ["email"] = "e@x" });
        Assert.Equal(2, users.Count());
        CollectionsTestDatabase.AssertValid(database);
    }

    [Fact]
    public void Without_readers_every_page_keeps_only_its_newest_version()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        for (var i = 0; i < 300; i++)
        {
            Transfer(engine, pages, i);
        }

        var settled = engine.GetStatistics().CachedBytes;
        for (var i = 0; i < 3000; i++)
        {
            Transfer(engine, pages, i);
        }

        Assert.Equal(settled, engine.GetStatistics().CachedBytes);
        Assert.All(pages, page => Assert.Equal(1, engine.PageVersionCount(page)));
    }

    [Fact]
    public void Versions_kept_for_long_readers_stay_bounded_and_are_released_when_the_readers_end()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        var settled = engine.GetStatistics().CachedBytes;
        var longReader = engine.BeginRead();
        ReadTransaction? middleReader = null;
        for (var i = 0; i < 2000; i++)
        {
            Transfer(engine, pages, i);
            if (i == 500)
            {
                middleReader = engine.BeginRead();
            }

            // Each page keeps its head and the version each open snapshot sees, whatever the number of commits.
            Assert.InRange(engine.PageVersionCount(pages[i % Accounts]), 1, middleReader is null ? 2 : 3);
        }

        Assert.True(engine.GetStatistics().CachedBytes <= settled + (2L * Accounts * engine.PageSize));
        Assert.All(pages, page => Assert.Equal(InitialBalance, Balance(longReader, page)));
        Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(middleReader!, page)));

        var commits = engine.InMemoryCommits;
        Assert.Contains(pages, page => engine.PageVersionCount(page) == 3);

        // No commit follows: ending the long reader releases what only it saw, and the middle
        // reader keeps its snapshot.
        longReader.Dispose();
        Assert.All(pages, page => Assert.InRange(engine.PageVersionCount(page), 1, 2));
        Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(middleReader!, page)));
        Assert.True(engine.GetStatistics().CachedBytes <= settled + ((long)Accounts * engine.PageSize));

        middleReader!.Dispose();
        Assert.Equal(commits, engine.InMemoryCommits);
        Assert.All(pages, page => Assert.Equal(1, engine.PageVersionCount(page)));
        Assert.Equal(settled, engine.GetStatistics().CachedBytes);
        engine.Verify().ThrowIfInvalid();
    }

    [Fact]
    public async Task Versions_go_with_the_last_reader_that_sees_them_while_commits_and_readers_run()
    {
        using var engine = OpenEngine();
        var pages = CreateAccounts(engine);
        var settled = engine.GetStatistics().CachedBytes;
        const int minimumTransfers = 1500;
        const int wantedOverlaps = 20;
        var writerDone = 0;
        var snapshotsChecked = 0;
        var readsOverlappingCommits = 0;

        // Runs until readers have been overtaken by commits often enough (bounded in time, in case
        // the scheduler starves them).
        var writer = Task.Run(() =>
        {
            var deadline = Stopwatch.StartNew();
            for (var i = 0; i < minimumTransfers || (Volatile.Read(ref readsOverlappingCommits) < wantedOverlaps && deadline.Elapsed < TimeSpan.FromSeconds(30)); i++)
            {
                Transfer(engine, pages, i);
            }

            Volatile.Write(ref writerDone, 1);
        });

        // Readers of different lengths: each sums every account; some wait halfway for commits to
        // pass them, so their snapshot is retired while they read and pages keep versions for it.
        var readers = Enumerable.Range(0, 3).Select(r => Task.Run(() =>
        {
            var round = 0;
            do
            {
                using var read = engine.BeginRead();
                var total = 0L;
                for (var i = 0; i < Accounts; i++)
                {
                    total += Balance(read, pages[i]);
                    if (i == Accounts / 2 && (round + r) % 3 == 0)
                    {
                        var seen = engine.InMemoryCommits;
                        if (SpinWait.SpinUntil(() => engine.InMemoryCommits > seen + 2 || Volatile.Read(ref writerDone) == 1, TimeSpan.FromSeconds(10))
                            && engine.InMemoryCommits > seen + 2
                            && pages.Max(engine.PageVersionCount) >= 2)
                        {
                            Interlocked.Increment(ref readsOverlappingCommits);
                        }
                    }
                }

                Assert.Equal(Accounts * InitialBalance, total);
                Interlocked.Increment(ref snapshotsChecked);
                round++;
            }
            while (Volatile.Read(ref writerDone) == 0);
        })).ToArray();

        await Task.WhenAll(readers.Append(writer));

        // Readers held older versions while commits ran; every reader has ended and no commit
        // came after the last ones: nothing but the newest version of each page is left.
        Assert.True(readsOverlappingCommits >= wantedOverlaps, $"{readsOverlappingCommits} reads were overtaken by commits");
        Assert.True(snapshotsChecked > readsOverlappingCommits);
        Assert.All(pages, page => Assert.Equal(1, engine.PageVersionCount(page)));
        Assert.Equal(settled, engine.GetStatistics().CachedBytes);
        using var final = engine.BeginRead();
        Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(final, page)));
    }

    [Fact]
    public void The_change_journal_in_memory_folds_its_records_as_commits_go_and_keeps_every_event()
    {
        var options = new StorageOptions { PageSize = 4096, WalCheckpointThresholdBytes = 64 * 4096 };
        using var database = DocumentDatabase.OpenInMemory(options, [new CollectionDefinition("orders", changeFeed: ChangeFeedMode.On)]);
        var orders = database.GetCollection("orders");
        var maxPending = 0;
        for (var i = 0; i < 300; i++)
        {
            orders.Insert(new BsonDocument { ["_id"] = i, ["customer"] = "Ada", ["padding"] = new string('x', 200) });
            maxPending = Math.Max(maxPending, database.Storage.PendingLogRecords);
        }

        // About one fold per threshold's worth of one-page commits, as on a file.
        Assert.InRange(maxPending, 32, 64);
        Assert.True(database.Storage.PendingLogRecords < 64);
        var events = new List<JournalEvent>();
        using (var read = database.BeginRead())
        {
            Assert.NotNull(ChangeJournal.Open(read, database.Catalog));
            ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), ChangeFeedToken.AfterTransaction(0), int.MaxValue, events, database.Storage.Path);
        }

        Assert.Equal(Enumerable.Range(1, 300).Select(i => (ulong)i), events.Select(e => e.Sequence));
        Assert.Equal(0, database.Storage.GetStatistics().Checkpoints);
        CollectionsTestDatabase.AssertValid(database);
    }

    private static StorageEngine OpenEngine() => StorageEngine.OpenInMemory(new StorageOptions { PageSize = 4096 });

    private static void Transfer(StorageEngine engine, uint[] pages, int i)
    {
        using var tx = engine.BeginWrite();
        var from = pages[i % Accounts];
        var to = pages[(i * 7 + 3) % Accounts];
        SetBalance(tx, from, Balance(tx, from) - 3);
        SetBalance(tx, to, Balance(tx, to) + 3);
        tx.Commit();
    }

    private static uint[] CreateAccounts(StorageEngine engine) => ConcurrencyTests.CreateAccounts(engine);

    private static long Balance(IPageReader pages, uint page) => ConcurrencyTests.Balance(pages, page);

    private static void SetBalance(IPageWriter pages, uint page, long value) => ConcurrencyTests.SetBalance(pages, page, value);
}
