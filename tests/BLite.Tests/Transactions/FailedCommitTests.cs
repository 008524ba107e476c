using BLite.Core;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage.Faults;
using BLite.Tests.Model;

namespace BLite.Tests.Transactions;

/// <summary>
/// A commit that fails inside the README's <c>using</c> pattern: the caller must see the commit's
/// own exception (not one thrown by Dispose), and the database must then refuse writes until reopened.
/// </summary>
public sealed class FailedCommitTests
{
    public enum FailurePoint
    {
        LogWrite,
        LogFlush,
        Checkpoint,
    }

    [Theory]
    [InlineData(FailurePoint.LogWrite, "write-ahead log could not be written")]
    [InlineData(FailurePoint.LogFlush, "Flushing the write-ahead log")]
    [InlineData(FailurePoint.Checkpoint, "Checkpoint of database")]
    public void A_failed_commit_in_a_using_block_surfaces_its_own_error(FailurePoint point, string where)
    {
        var devices = new Devices(point);
        using (var db = devices.Open())
        {
            db.Orders.Insert(Orders.Create(1));

            var exception = Assert.Throws<BLiteException>(() =>
            {
                using var tx = db.BeginTransaction();
                db.Orders.Insert(Orders.Create(2));
                devices.ArmFailure();
                tx.Commit();
            });

            AssertFailedCommit(devices, db, exception, where);
        }

        AssertReopened(devices, point);
    }

    [Theory]
    [InlineData(FailurePoint.LogWrite, "write-ahead log could not be written")]
    [InlineData(FailurePoint.LogFlush, "Flushing the write-ahead log")]
    [InlineData(FailurePoint.Checkpoint, "Checkpoint of database")]
    public async Task A_failed_commit_in_an_await_using_block_surfaces_its_own_error(FailurePoint point, string where)
    {
        var devices = new Devices(point);
        await using (var db = devices.Open())
        {
            await db.Orders.InsertAsync(Orders.Create(1));

            var exception = await Assert.ThrowsAsync<BLiteException>(async () =>
            {
                await using var tx = await db.BeginTransactionAsync();
                await db.Orders.InsertAsync(Orders.Create(2));
                devices.ArmFailure();
                await tx.CommitAsync();
            });

            AssertFailedCommit(devices, db, exception, where);
        }

        AssertReopened(devices, point);
    }

    [Fact]
    public void Rollback_after_a_failed_commit_does_nothing_and_a_failed_transaction_refuses_further_work()
    {
        var devices = new Devices(FailurePoint.LogWrite);
        using var db = devices.Open();
        var tx = db.BeginTransaction();
        db.Orders.Insert(Orders.Create(1));
        devices.ArmFailure();
        Assert.Throws<BLiteException>(tx.Commit);

        tx.Rollback();
        tx.Dispose();

        Assert.False(tx.IsActive);
        Assert.Equal(0, db.ActiveTransactionCount);
        var reuse = Assert.Throws<InvalidOperationException>(tx.Commit);
        Assert.Contains("commit failed", reuse.Message, StringComparison.Ordinal);
    }

    private static void AssertFailedCommit(Devices devices, ShopContext db, BLiteException exception, string where)
    {
        Assert.True(devices.FailureHappened, "the injected failure was never reached");
        Assert.Contains(where, exception.Message, StringComparison.Ordinal);
        Assert.Contains("No space left on device", exception.Message, StringComparison.Ordinal);
        Assert.Null(db.CurrentTransaction);
        Assert.Equal(0, db.ActiveTransactionCount);

        var refused = Assert.Throws<BLiteException>(() => db.Orders.Insert(Orders.Create(3)));
        Assert.Contains("after an earlier failure", refused.Message, StringComparison.Ordinal);
        Assert.Contains("No space left on device", refused.Message, StringComparison.Ordinal);
        Assert.Throws<BLiteException>(() => db.BeginTransaction());
    }

    private static void AssertReopened(Devices devices, FailurePoint point)
    {
        using var reopened = devices.AfterProcessExit().Open();
        var orders = reopened.Orders.FindAll().Select(order => order.OrderNumber).Order(StringComparer.Ordinal).ToList();
        Assert.Contains(Orders.Create(1).OrderNumber, orders);
        Assert.DoesNotContain(Orders.Create(3).OrderNumber, orders);
        if (point == FailurePoint.LogWrite)
        {
            Assert.Single(orders);
        }
        else if (point == FailurePoint.Checkpoint)
        {
            // The commit was durable before its auto-checkpoint failed.
            Assert.Equal(2, orders.Count);
        }

        Assert.True(reopened.Database.Verify().IsValid);
    }

    private sealed class Devices
    {
        private readonly FailurePoint _point;
        private readonly FaultInjector _injector = new() { FailAsDiskFull = true };
        private readonly FaultInjectingDevice _file;
        private readonly FaultInjectingDevice _wal;
        private int _armedAt;

        public Devices(FailurePoint point, byte[]? file = null, byte[]? wal = null)
        {
            _point = point;
            _file = new FaultInjectingDevice(_injector, "shop.blite", file ?? []);
            _wal = new FaultInjectingDevice(_injector, "shop.blite-wal", wal ?? []);
        }

        public bool FailureHappened => _point == FailurePoint.LogWrite ? _injector.Writes >= _armedAt : _injector.Flushes >= _armedAt;

        public ShopContext Open()
        {
            var file = _file;
            var wal = _wal;
            return new ShopContext(new DocumentDbContextOptions
            {
                OpenStorage = options =>
                {
                    // The smallest threshold makes every commit run its auto-checkpoint, inside the
                    // commit (the synchronous mode, where the commit itself reports the failure).
                    options.WalCheckpointThresholdBytes = _point == FailurePoint.Checkpoint ? options.PageSize : options.WalCheckpointThresholdBytes;
                    options.CheckpointInBackground = _point != FailurePoint.Checkpoint;
                    // The armed write must be the commit's: zeros written ahead of the log by the
                    // thread-pool filler would take it, and the commit would succeed.
                    options.FillsLogAheadOnCommitPath = true;
                    return StorageEngine.Open(file, wal, options);
                },
            });
        }

        /// <summary>Fails the commit's log write, its flush, or the checkpoint's flush of the database file.</summary>
        public void ArmFailure()
        {
            switch (_point)
            {
                case FailurePoint.LogWrite:
                    _injector.FailWriteAt = _armedAt = _injector.Writes + 1;
                    break;
                case FailurePoint.LogFlush:
                    _injector.FailFlushAt = _armedAt = _injector.Flushes + 1;
                    break;
                default:
                    // After the commit's own flush, the checkpoint first commits the document
                    // counts (one more log flush), then flushes the database file.
                    _injector.FailFlushAt = _armedAt = _injector.Flushes + 3;
                    break;
            }
        }

        public Devices AfterProcessExit() => new(FailurePoint.LogWrite, _file.VisibleContent(), _wal.VisibleContent());
    }
}
