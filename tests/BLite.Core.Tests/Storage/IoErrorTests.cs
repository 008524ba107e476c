using BLite.Core.CrashWorker;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Failing the Nth write or flush: the operation that hits it fails with a clear BLiteException,
/// the engine refuses further writes, and the database reopens consistent with every
/// acknowledged commit.
/// </summary>
public class IoErrorTests
{
    public static TheoryData<string, Durability> Faults => new()
    {
        { "write", Durability.Full },
        { "flush", Durability.Full },
        { "write", Durability.Normal },
        { "flush", Durability.Normal },
    };

    [Theory]
    [MemberData(nameof(Faults))]
    public void A_failed_write_or_flush_fails_that_commit_and_the_database_reopens_consistent(string fault, Durability durability)
    {
        for (var n = 1; n <= 60; n++)
        {
            var random = new Random(n);
            var options = new StorageOptions { Durability = durability, PageSize = 4096, WalCheckpointThresholdBytes = 8 * 4096 };
            var disk = new FaultDatabase();
            if (fault == "write")
            {
                disk.Injector.FailWriteAt = n;
            }
            else
            {
                disk.Injector.FailFlushAt = n;
            }

            long acknowledged = -1;
            long attempted = -1;
            BLiteException? failure = null;
            StorageEngine? engine = null;
            try
            {
                engine = disk.Open(options);
                using (var init = engine.BeginWrite())
                {
                    CommitLedger.Initialize(init, dataPages: 4);
                    attempted = 0;
                    init.Commit();
                    acknowledged = 0;
                }

                for (var t = 0; t < 25; t++)
                {
                    using var tx = engine.BeginWrite();
                    attempted = CommitLedger.WriteNext(tx, random);
                    tx.Commit();
                    acknowledged = attempted;
                }

                engine.Dispose();
            }
            catch (BLiteException exception)
            {
                failure = exception;
            }

            if (failure is null)
            {
                continue;
            }

            Assert.Contains("Injected", failure.ToString(), StringComparison.Ordinal);
            if (engine is not null && !engine.IsClosed)
            {
                var refused = Assert.Throws<BLiteException>(() => engine.BeginWrite());
                Assert.Contains("reopen", refused.Message, StringComparison.Ordinal);
                engine.Dispose();
            }

            using var reopened = disk.AfterProcessExit().Open(options);
            using (var read = reopened.BeginRead())
            {
                var recovered = CommitLedger.Load(read).Data.Count == 0 ? -1 : CommitLedger.Check(read);
                Assert.InRange(recovered, acknowledged, attempted);
            }

            Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid);
        }
    }

    [Fact]
    public void A_failed_read_surfaces_as_a_BLiteException_and_the_next_read_succeeds()
    {
        var disk = new FaultDatabase();
        var options = new StorageOptions { Durability = Durability.Full, PageSize = 4096, CacheBudgetBytes = 0 };
        using var engine = disk.Open(options);
        using (var tx = engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 17);
            tx.Commit();
        }

        engine.Checkpoint();
        using var read = engine.BeginRead();
        disk.Injector.FailReadAt = disk.Injector.Reads + 1;
        var failure = Assert.Throws<BLiteException>(() => read.ReadPage(PageIds.Catalog));
        Assert.Contains("page 1", failure.Message, StringComparison.Ordinal);
        Assert.Equal(17, PageData.Read(read, PageIds.Catalog));
    }
}
