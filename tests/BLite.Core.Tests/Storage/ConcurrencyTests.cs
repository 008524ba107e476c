using System.Buffers.Binary;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Writers move amounts between accounts (one account per page) while readers sum every account:
/// a snapshot must always see the same total, so a reader that saw half of a transfer would fail.
/// Small WAL and cache limits make checkpoints and cache misses happen under the readers.
/// </summary>
public class ConcurrencyTests
{
    internal const int Accounts = 24;
    internal const long InitialBalance = 1000;

    public static TheoryData<Durability> Modes => new() { Durability.Full, Durability.Normal, Durability.InMemory };

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task Readers_never_see_half_of_a_transfer_while_writers_commit(Durability durability)
    {
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            CacheBudgetBytes = 8 * 4096,
            WalCheckpointThresholdBytes = 16 * 4096,
        });
        var pages = CreateAccounts(db.Engine);
        using var longReader = db.Engine.BeginRead();
        var transfersPerWriter = durability == Durability.Full ? 60 : 300;
        var writersDone = 0;
        var snapshotsChecked = 0;

        var writers = Enumerable.Range(0, 3).Select(w => Task.Run(async () =>
        {
            var random = new Random(100 + w);
            for (var i = 0; i < transfersPerWriter; i++)
            {
                using var tx = await db.Engine.BeginWriteAsync();
                var from = pages[random.Next(Accounts)];
                var to = pages[random.Next(Accounts)];
                var amount = random.Next(1, 50);
                SetBalance(tx, from, Balance(tx, from) - amount);
                SetBalance(tx, to, Balance(tx, to) + amount);
                await tx.CommitAsync();
            }

            Interlocked.Increment(ref writersDone);
        })).ToArray();

        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(() =>
        {
            do
            {
                using var read = db.Engine.BeginRead();
                long total = 0;
                foreach (var page in pages)
                {
                    total += Balance(read, page);
                }

                Assert.Equal(Accounts * InitialBalance, total);
                Interlocked.Increment(ref snapshotsChecked);
            }
            while (Volatile.Read(ref writersDone) < writers.Length);
        })).ToArray();

        await Task.WhenAll(writers.Concat(readers));

        Assert.True(snapshotsChecked >= readers.Length);
        foreach (var page in pages)
        {
            Assert.Equal(InitialBalance, Balance(longReader, page));
        }

        Assert.True(db.Engine.GetStatistics().Checkpoints > 0 || durability == Durability.InMemory);
        using var final = db.Engine.BeginRead();
        Assert.Equal(Accounts * InitialBalance, pages.Sum(page => Balance(final, page)));
    }

    [Fact]
    public void A_reader_does_not_block_the_writer_and_the_writer_does_not_block_a_reader()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        var pages = CreateAccounts(db.Engine);
        using var read = db.Engine.BeginRead();
        using (var tx = db.Engine.BeginWrite())
        {
            // A reader is open and a writer is open at once, on the same thread: neither waits.
            using var concurrentRead = db.Engine.BeginRead();
            SetBalance(tx, pages[0], 1);
            Assert.Equal(InitialBalance, Balance(concurrentRead, pages[0]));
            tx.Commit();
        }

        db.Engine.Checkpoint();
        Assert.Equal(InitialBalance, Balance(read, pages[0]));
    }

    internal static uint[] CreateAccounts(StorageEngine engine)
    {
        var pages = new uint[Accounts];
        using var tx = engine.BeginWrite();
        for (var i = 0; i < Accounts; i++)
        {
            pages[i] = tx.AllocatePage();
            SetBalance(tx, pages[i], InitialBalance);
        }

        tx.Commit();
        return pages;
    }

    internal static long Balance(IPageReader pages, uint page) => BinaryPrimitives.ReadInt64LittleEndian(pages.ReadPage(page).Span);

    internal static void SetBalance(IPageWriter pages, uint page, long value) => BinaryPrimitives.WriteInt64LittleEndian(pages.WritePage(page).Span, value);
}
