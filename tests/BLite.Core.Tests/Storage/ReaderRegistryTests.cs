using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Readers register their snapshot without the engine lock (docs/storage.md, "Registering readers
/// without the lock"): a reader still sees exactly its snapshot while commits publish and
/// checkpoints prune page versions around it.
/// </summary>
public class ReaderRegistryTests
{
    private const int Accounts = ConcurrencyTests.Accounts;
    private const long InitialBalance = ConcurrencyTests.InitialBalance;
    private const int MinTransfers = 300;
    private const int MaxTransfers = 200_000;
    private const int MinReadsAcrossCheckpoints = 25;

    // Not InMemory: there a commit publishes its pages as chain heads and no checkpoint prunes (InMemoryCommitTests cover its readers).
    public static TheoryData<Durability> Modes => new() { Durability.Full, Durability.Normal };

    [Fact]
    public void A_reader_that_loses_the_race_with_a_publication_and_its_prune_reads_the_new_snapshot()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var engine = db.Engine;
        PageData.Commit(engine, PageIds.Catalog, 1);
        var checkpointsBefore = engine.GetStatistics().Checkpoints;
        var loaded = new List<long>();
        var raced = false;

        // In the gap between loading the published registration and counting itself on it, a
        // commit publishes a newer snapshot (dropping the versions only the older one sees) and a
        // checkpoint prunes and overwrites the file.
        engine.AfterPublishedLoad = snapshot =>
        {
            loaded.Add(snapshot);
            if (!raced)
            {
                raced = true;
                PageData.Commit(engine, PageIds.Catalog, 2);
                engine.Checkpoint();
            }
        };

        var (seen, snapshotSeen) = engine.Read(0, static (pages, _) => (PageData.Read(pages, PageIds.Catalog), ((Core.Transactions.ReadTransaction)pages).Snapshot));
        engine.AfterPublishedLoad = null;

        Assert.Equal(2, seen);
        Assert.Equal(2, loaded.Count);
        Assert.Equal(loaded[1], snapshotSeen);
        Assert.True(loaded[1] > loaded[0], "the retry must load the newer publication");
        Assert.Equal(1, engine.RegistrationRetries);
        Assert.Equal(checkpointsBefore + 1, engine.GetStatistics().Checkpoints);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_reader_that_keeps_losing_the_race_registers_under_the_lock_and_reads_the_newest_snapshot()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var engine = db.Engine;
        PageData.Commit(engine, PageIds.Catalog, 1);
        var value = 1L;
        engine.AfterPublishedLoad = _ =>
        {
            PageData.Commit(engine, PageIds.Catalog, ++value);
            engine.Checkpoint();
        };

        using (var read = engine.BeginRead())
        {
            engine.AfterPublishedLoad = null;
            Assert.Equal(value, PageData.Read(read, PageIds.Catalog));
            Assert.Equal(1, engine.GetStatistics().ActiveReaders);

            // The lock-registered reader is found by the next checkpoint like any other.
            PageData.Commit(engine, PageIds.Catalog, value + 1);
            engine.Checkpoint();
            Assert.Equal(value, PageData.Read(read, PageIds.Catalog));
            Assert.True(engine.GetStatistics().PinnedBytes > 0, "the checkpoint must pin the version the registered reader still sees");
        }

        Assert.Equal(2, engine.RegistrationRetries);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
        Assert.Equal(0, engine.GetStatistics().PinnedBytes);
    }

    [Fact]
    public void A_registration_counted_before_the_publication_keeps_its_versions_through_the_prune()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var engine = db.Engine;
        PageData.Commit(engine, PageIds.Catalog, 1);

        // Registered on the published snapshot, then a commit retires it and a checkpoint prunes:
        // the retired registration is still found, so its version is pinned rather than dropped.
        using var read = engine.BeginRead();
        PageData.Commit(engine, PageIds.Catalog, 2);
        PageData.Commit(engine, PageIds.Catalog, 3);
        engine.Checkpoint();
        Assert.Equal(1, PageData.Read(read, PageIds.Catalog));
        Assert.Equal(3, engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog)));
        Assert.Equal(0, engine.RegistrationRetries);
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Readers_registering_without_the_lock_see_exactly_their_snapshot_while_commits_and_checkpoints_prune(Durability durability)
    {
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            CacheBudgetBytes = 8 * 4096,
            WalCheckpointThresholdBytes = 1 << 30,
        });
        var engine = db.Engine;
        var pages = CreateAccounts(engine);
        var checkpointsBefore = engine.GetStatistics().Checkpoints;
        var transfers = 0;
        var writing = 1;
        var reads = 0L;
        var readsAcrossCheckpoints = 0L;

        var writer = OnOwnThread(() =>
        {
            try
            {
                var random = new Random(7);

                // Until enough reads have overlapped checkpoints that the scenario surely happened,
                // within a bound so a broken checkpoint cannot make the test run forever.
                for (var i = 1; i <= MaxTransfers && (i <= MinTransfers || Volatile.Read(ref readsAcrossCheckpoints) < MinReadsAcrossCheckpoints); i++)
                {
                    using var tx = engine.BeginWrite();
                    var from = pages[random.Next(Accounts)];
                    var to = pages[random.Next(Accounts)];
                    var amount = random.Next(1, 50);
                    ConcurrencyTests.SetBalance(tx, from, ConcurrencyTests.Balance(tx, from) - amount);
                    ConcurrencyTests.SetBalance(tx, to, ConcurrencyTests.Balance(tx, to) + amount);
                    PageData.Stamp(tx, PageIds.Catalog, i);
                    tx.Commit();
                    transfers = i;
                }
            }
            finally
            {
                Volatile.Write(ref writing, 0);
            }
        });

        // Checkpoints run as fast as they can, so pruning and pinning happen under the readers.
        var checkpointer = OnOwnThread(() =>
        {
            while (Volatile.Read(ref writing) == 1)
            {
                engine.Checkpoint();
            }
        });

        var pointReaders = Enumerable.Range(0, 2).Select(_ => OnOwnThread(() =>
        {
            var lastStamp = 0L;
            do
            {
                var checkpointsBefore = engine.GetStatistics().Checkpoints;
                var (stamp, total, again) = engine.Read(pages, static (read, accounts) =>
                {
                    var stamp = PageData.Read(read, PageIds.Catalog);
                    var total = SumBalances(read, accounts);
                    return (stamp, total, PageData.Read(read, PageIds.Catalog));
                });

                Assert.Equal(Accounts * InitialBalance, total);
                Assert.Equal(stamp, again);
                Assert.True(stamp >= lastStamp, $"a later reader saw an older snapshot: stamp {stamp} after {lastStamp}");
                lastStamp = stamp;
                Interlocked.Increment(ref reads);
                if (engine.GetStatistics().Checkpoints > checkpointsBefore)
                {
                    Interlocked.Increment(ref readsAcrossCheckpoints);
                }
            }
            while (Volatile.Read(ref writing) == 1);
        })).ToArray();

        // A reader that holds its snapshot until a checkpoint has completed under it, then reads again.
        var longReader = OnOwnThread(() =>
        {
            do
            {
                using var read = engine.BeginRead();
                var stamp = PageData.Read(read, PageIds.Catalog);
                var total = SumBalances(read, pages);
                var checkpointsBefore = engine.GetStatistics().Checkpoints;
                SpinWait.SpinUntil(() => engine.GetStatistics().Checkpoints > checkpointsBefore || Volatile.Read(ref writing) == 0);
                Assert.Equal(Accounts * InitialBalance, total);
                Assert.Equal(total, SumBalances(read, pages));
                Assert.Equal(stamp, PageData.Read(read, PageIds.Catalog));
                if (engine.GetStatistics().Checkpoints > checkpointsBefore)
                {
                    Interlocked.Increment(ref readsAcrossCheckpoints);
                }
            }
            while (Volatile.Read(ref writing) == 1);
        });

        await Task.WhenAll([writer, checkpointer, longReader, .. pointReaders]);

        var statistics = engine.GetStatistics();
        Assert.True(reads > 0, "no point read ran");
        Assert.True(readsAcrossCheckpoints >= MinReadsAcrossCheckpoints, $"{readsAcrossCheckpoints} reads overlapped a checkpoint ({reads} reads, {transfers} transfers, {statistics.Checkpoints} checkpoints)");
        Assert.True(statistics.Checkpoints - checkpointsBefore > 1, $"only {statistics.Checkpoints - checkpointsBefore} checkpoints ran");
        Assert.Equal(0, statistics.ActiveReaders);
        Assert.Equal(0, statistics.PinnedBytes);
        Assert.Equal(transfers, engine.Read(0, static (read, _) => PageData.Read(read, PageIds.Catalog)));
        Assert.Equal(Accounts * InitialBalance, engine.Read(pages, static (read, accounts) => SumBalances(read, accounts)));
    }

    // The scenario needs the writer, the checkpointer and the readers running at once: on their
    // own threads they do not wait for the thread pool, which other tests running in parallel can
    // keep busy until the writer has finished.
    private static Task OnOwnThread(Action work) =>
        Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private static uint[] CreateAccounts(StorageEngine engine)
    {
        var pages = ConcurrencyTests.CreateAccounts(engine);
        PageData.Commit(engine, PageIds.Catalog, 0);
        return pages;
    }

    private static long SumBalances(IPageReader read, uint[] pages)
    {
        long total = 0;
        foreach (var page in pages)
        {
            total += ConcurrencyTests.Balance(read, page);
        }

        return total;
    }
}
