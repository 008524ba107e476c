using System.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A lent reader registers in its thread's slot and ends without an atomic (docs/storage.md, "A
/// slot per reading thread"): its snapshot must still be found by every pruner (commit, checkpoint,
/// pinning), and what was kept for it must still go when it ends.
/// </summary>
public class ReaderSlotTests
{
    private const int Accounts = ConcurrencyTests.Accounts;
    private const long InitialBalance = ConcurrencyTests.InitialBalance;

    public static TheoryData<Durability> FileModes => new() { Durability.Full, Durability.Normal };

    [Theory]
    [MemberData(nameof(FileModes))]
    public async Task A_point_reader_in_its_slot_keeps_its_snapshot_while_another_thread_commits_prunes_and_checkpoints(Durability durability)
    {
        using var db = new TestDatabase(new StorageOptions { Durability = durability, PageSize = 4096 });
        var engine = db.Engine;
        var pages = ConcurrencyTests.CreateAccounts(engine);
        PageData.Commit(engine, PageIds.Catalog, 1);
        using var registered = new ManualResetEventSlim();
        using var pruned = new ManualResetEventSlim();

        var reader = Task.Run(() => engine.Read(pages, (read, accounts) =>
        {
            var before = (PageData.Read(read, PageIds.Catalog), SumBalances(read, accounts));
            registered.Set();
            pruned.Wait();
            return (before, after: (PageData.Read(read, PageIds.Catalog), SumBalances(read, accounts)));
        }));

        registered.Wait();
        Assert.Equal(1, engine.SlotReaders);
        for (var i = 0; i < 20; i++)
        {
            Transfer(engine, pages, i);
        }

        PageData.Commit(engine, PageIds.Catalog, 2);
        engine.Checkpoint();
        PageData.Commit(engine, PageIds.Catalog, 3);
        engine.Checkpoint();
        Assert.True(engine.GetStatistics().PinnedBytes > 0, "the checkpoint must pin the versions the slot's reader still sees");
        pruned.Set();
        var (before, after) = await reader;

        Assert.Equal((1L, Accounts * InitialBalance), before);
        Assert.Equal(before, after);
        Assert.Equal(0, engine.SlotReaders);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
        Assert.Equal(0, engine.GetStatistics().PinnedBytes);
        Assert.Equal(3, engine.Read(0, static (read, _) => PageData.Read(read, PageIds.Catalog)));
    }

    [Fact]
    public async Task In_memory_versions_kept_for_a_point_reader_in_its_slot_go_when_it_ends()
    {
        using var engine = StorageEngine.OpenInMemory(new StorageOptions { PageSize = 4096 });
        var pages = ConcurrencyTests.CreateAccounts(engine);
        var settled = engine.GetStatistics().CachedBytes;
        var barriersBefore = engine.SlotBarriers;
        using var registered = new ManualResetEventSlim();
        using var committed = new ManualResetEventSlim();

        var reader = Task.Run(() => engine.Read(pages, (read, accounts) =>
        {
            var before = SumBalances(read, accounts);
            registered.Set();
            committed.Wait();
            return (before, after: SumBalances(read, accounts), first: ConcurrencyTests.Balance(read, accounts[0]));
        }));

        registered.Wait();
        for (var i = 0; i < 50; i++)
        {
            Transfer(engine, pages, i);
        }

        // The commits found the slot holding a retired snapshot after raising the history flag,
        // so they made sure of it with a process-wide barrier, and kept its versions.
        Assert.True(engine.SlotBarriers > barriersBefore, "no commit made sure of the slot holding a retired snapshot");
        Assert.Contains(pages, page => engine.PageVersionCount(page) == 2);
        committed.Set();
        var (before, after, first) = await reader;

        Assert.Equal(Accounts * InitialBalance, before);
        Assert.Equal(before, after);
        Assert.Equal(InitialBalance, first);

        // No commit followed: the reader's end released what only its snapshot saw.
        Assert.All(pages, page => Assert.Equal(1, engine.PageVersionCount(page)));
        Assert.Equal(settled, engine.GetStatistics().CachedBytes);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_nested_point_read_on_the_same_thread_counts_itself_on_the_shared_registration()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var engine = db.Engine;
        PageData.Commit(engine, PageIds.Catalog, 5);

        var (outer, inner, slots, active) = engine.Read(engine, static (read, engine) =>
        {
            var (inner, slots, active) = engine.Read(engine, static (nested, engine) =>
                (PageData.Read(nested, PageIds.Catalog), engine.SlotReaders, engine.GetStatistics().ActiveReaders));
            return (PageData.Read(read, PageIds.Catalog), inner, slots, active);
        });

        Assert.Equal((5L, 5L), (outer, inner));
        Assert.Equal(1, slots);
        Assert.Equal(2, active);
        Assert.Equal(0, engine.SlotReaders);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_point_reader_that_keeps_losing_the_race_for_its_slot_registers_under_the_lock_and_reads_the_newest_snapshot()
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

        var (seen, slots, active) = engine.Read(engine, static (read, engine) =>
        {
            engine.AfterPublishedLoad = null;
            return (PageData.Read(read, PageIds.Catalog), engine.SlotReaders, engine.GetStatistics().ActiveReaders);
        });

        Assert.Equal(value, seen);
        Assert.Equal(3, value);
        Assert.Equal(0, slots);
        Assert.Equal(1, active);
        Assert.Equal(2, engine.RegistrationRetries);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
        Assert.Equal(0, engine.GetStatistics().PinnedBytes);
    }

    [Fact]
    public async Task Many_threads_registering_and_ending_in_their_slots_while_in_memory_commits_prune_each_see_exactly_their_snapshot()
    {
        using var engine = StorageEngine.OpenInMemory(new StorageOptions { PageSize = 4096 });
        var pages = ConcurrencyTests.CreateAccounts(engine);
        var settled = engine.GetStatistics().CachedBytes;
        const int minimumTransfers = 2000;
        const int wantedOverlaps = 40;
        var writerDone = 0;
        var reads = 0L;
        var overlaps = 0L;

        var writer = Task.Run(() =>
        {
            var deadline = Stopwatch.StartNew();
            for (var i = 0; i < minimumTransfers || (Volatile.Read(ref overlaps) < wantedOverlaps && deadline.Elapsed < TimeSpan.FromSeconds(30)); i++)
            {
                Transfer(engine, pages, i);
            }

            Volatile.Write(ref writerDone, 1);
        });

        // Point readers on four threads, registering and ending without pause; every fifth waits
        // halfway through its sum for commits to retire its snapshot and prune around it.
        var readers = Enumerable.Range(0, 4).Select(r => Task.Run(() =>
        {
            var round = 0;
            do
            {
                var wait = (round++ + r) % 5 == 0;
                var (total, overtaken) = engine.Read(pages, (read, accounts) =>
                {
                    var total = 0L;
                    var overtaken = false;
                    for (var i = 0; i < accounts.Length; i++)
                    {
                        total += ConcurrencyTests.Balance(read, accounts[i]);
                        if (wait && i == accounts.Length / 2)
                        {
                            var seen = engine.InMemoryCommits;
                            overtaken = SpinWait.SpinUntil(() => engine.InMemoryCommits > seen + 2 || Volatile.Read(ref writerDone) == 1, TimeSpan.FromSeconds(10))
                                && engine.InMemoryCommits > seen + 2;
                        }
                    }

                    return (total, overtaken);
                });

                Assert.Equal(Accounts * InitialBalance, total);
                Interlocked.Increment(ref reads);
                if (overtaken)
                {
                    Interlocked.Increment(ref overlaps);
                }
            }
            while (Volatile.Read(ref writerDone) == 0);
        })).ToArray();

        await Task.WhenAll(readers.Append(writer));

        Assert.True(overlaps >= wantedOverlaps, $"{overlaps} reads were overtaken by commits ({reads} reads)");
        Assert.True(engine.SlotBarriers > 0, "no commit met a slot holding a retired snapshot");
        Assert.Equal(0, engine.SlotReaders);
        Assert.Equal(0, engine.GetStatistics().ActiveReaders);
        Assert.All(pages, page => Assert.Equal(1, engine.PageVersionCount(page)));
        Assert.Equal(settled, engine.GetStatistics().CachedBytes);
        Assert.Equal(Accounts * InitialBalance, engine.Read(pages, static (read, accounts) => SumBalances(read, accounts)));
    }

    private static void Transfer(StorageEngine engine, uint[] pages, int i)
    {
        using var tx = engine.BeginWrite();
        var from = pages[i % Accounts];
        var to = pages[((i * 7) + 3) % Accounts];
        ConcurrencyTests.SetBalance(tx, from, ConcurrencyTests.Balance(tx, from) - 3);
        ConcurrencyTests.SetBalance(tx, to, ConcurrencyTests.Balance(tx, to) + 3);
        tx.Commit();
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
