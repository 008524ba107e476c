using BLite.Core.CrashWorker;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The automatic checkpoint runs on a background task (docs/storage.md, "Background checkpoint").
/// Each test holds one of the checkpoint's flushes open from the injector's flush hook, so the
/// checkpoint is provably in progress while the test commits, reads, closes or cuts the power.
/// </summary>
public class BackgroundCheckpointTests
{
    private const int PageSize = 4096;
    private const long Threshold = 16 * PageSize;

    [Theory]
    [InlineData(Durability.Normal)]
    [InlineData(Durability.Full)]
    public async Task Commits_continue_while_a_checkpoint_copies_in_the_background(Durability durability)
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(durability));
        var random = new Random(1);
        Commit(engine, random, initialize: true);
        using var hold = new FlushHold(disk, stopAtFlush: 1);
        var last = CommitUntil(engine, random, () => hold.Reached);
        using var before = engine.BeginRead();

        // The checkpoint is stuck in its file flush: commits still go through, and readers see them.
        for (var i = 0; i < 6; i++)
        {
            last = Commit(engine, random);
        }

        Assert.Equal(0, engine.BackgroundCheckpoints);
        Assert.False(engine.BackgroundCheckpointTask.IsCompleted);
        using (var read = engine.BeginRead())
        {
            Assert.Equal(last, CommitLedger.Check(read));
        }

        var seenBefore = CommitLedger.Check(before);
        Assert.True(seenBefore < last);
        hold.Release();
        await engine.BackgroundCheckpointTask;

        Assert.True(engine.BackgroundCheckpoints >= 1);
        Assert.Null(engine.WriteFailure);
        Assert.Equal(seenBefore, CommitLedger.Check(before));
        using (var read = engine.BeginRead())
        {
            Assert.Equal(last, CommitLedger.Check(read));
        }

        Assert.True(engine.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid);
        before.Dispose();
        engine.Dispose();
        using var reopened = disk.AfterProcessExit().Open(Options(durability));
        using var after = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(after));
    }

    [Fact]
    public async Task A_commit_waits_for_the_checkpoint_once_the_log_reaches_the_back_pressure_size()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(Durability.Normal));
        var random = new Random(2);
        Commit(engine, random, initialize: true);
        using var hold = new FlushHold(disk, stopAtFlush: 1);
        CommitUntil(engine, random, () => hold.Reached);

        // Commit on until one commit is held back: it cannot finish while the checkpoint is stuck.
        var committer = Task.Run(() =>
        {
            var committed = 0L;
            while (true)
            {
                committed = Commit(engine, new Random(3));
                if (engine.BackPressureWaits > 0)
                {
                    return committed;
                }
            }
        });
        Assert.True(SpinWait.SpinUntil(() => engine.BackPressureWaits > 0, TimeSpan.FromSeconds(30)), "no commit met back-pressure");
        Assert.False(committer.IsCompleted);
        var stats = engine.GetStatistics();
        Assert.True(stats.WalBytes >= StorageEngine.BackPressureFactor * Threshold && stats.WalBytes <= (StorageEngine.BackPressureFactor * Threshold) + (8 * (PageSize + 32)),
            $"WAL {stats.WalBytes} bytes, {stats.Checkpoints} checkpoints, {engine.BackgroundCheckpoints} in the background, hold reached {hold.Reached}");

        hold.Release();
        var last = await committer.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.True(engine.BackgroundCheckpoints >= 1);
        Assert.InRange(engine.GetStatistics().WalBytes, 0, 2 * Threshold);
        using (var read = engine.BeginRead())
        {
            Assert.Equal(last, CommitLedger.Check(read));
        }

        engine.Dispose();
    }

    [Fact]
    public async Task Closing_waits_for_a_running_background_checkpoint()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(Durability.Normal));
        var random = new Random(4);
        Commit(engine, random, initialize: true);
        using var hold = new FlushHold(disk, stopAtFlush: 1);
        var last = CommitUntil(engine, random, () => hold.Reached);
        last = Commit(engine, random);

        var closing = Task.Run(engine.Dispose);
        hold.Release();
        await closing.WaitAsync(TimeSpan.FromSeconds(30));

        // The checkpoint was allowed to finish (not cut off by the closed devices), then the close checkpointed the rest.
        Assert.True(engine.IsClosed);
        Assert.Equal(1, engine.BackgroundCheckpoints);
        Assert.Null(engine.WriteFailure);
        using var reopened = disk.AfterPowerLoss(new Random(5)).Open(Options(Durability.Normal));
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    /// <summary>
    /// A commit fails on a log write while the background checkpoint copies; the checkpoint then
    /// meets that failure. The commit's caller was told, so the close does not throw it again.
    /// </summary>
    [Fact]
    public async Task A_close_does_not_repeat_a_failure_the_failed_commit_already_reported()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(Durability.Normal));
        var random = new Random(6);
        Commit(engine, random, initialize: true);
        using var hold = new FlushHold(disk, stopAtFlush: 1);
        var last = CommitUntil(engine, random, () => hold.Reached);
        Assert.True(hold.Reached, "no background checkpoint reached its file flush");
        // Commits the copy has not seen and the log has not flushed: the checkpoint must flush them.
        for (var i = 0; i < 6; i++)
        {
            last = Commit(engine, random);
        }

        disk.Injector.FailWriteAt = disk.Injector.Writes + 1;
        var failedCommit = Assert.Throws<BLiteException>(() => Commit(engine, random));
        Assert.Contains("Injected", failedCommit.ToString(), StringComparison.Ordinal);
        hold.Release();
        await engine.BackgroundCheckpointTask;

        Assert.NotNull(engine.BackgroundFailure);
        Assert.Equal(0, engine.BackgroundCheckpoints);
        var refused = Assert.Throws<BLiteException>(() => engine.BeginWrite());
        Assert.Contains("reopen", refused.Message, StringComparison.Ordinal);
        engine.Dispose();
        Assert.True(engine.IsClosed);

        using var reopened = disk.AfterProcessExit().Open(Options(Durability.Normal));
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    /// <summary>
    /// A kill or power cut while the background checkpoint is at each of its flushes (file flushes
    /// of the copy passes, the WAL flush before the restart, the new log header's flush) loses no
    /// acknowledged Full commit and leaves a consistent database.
    /// </summary>
    [Fact]
    public async Task A_crash_during_a_background_checkpoint_recovers_every_acknowledged_commit()
    {
        var cuts = 0;
        for (var run = 0; run < 24; run++)
        {
            var random = new Random(100 + run);
            var disk = new FaultDatabase();
            var options = Options(Durability.Full);
            var engine = disk.Open(options);
            Commit(engine, random, initialize: true);
            // Three runs in four stop at a file flush of the copy (commits go on meanwhile); the
            // fourth at the checkpoint's first WAL flush (the new log header's, or the one before
            // the restart), where a Full commit would queue behind the held flush, so none is made.
            var atLogFlush = run % 4 == 3;
            var stopAt = atLogFlush ? 1 : 1 + (run % 4);
            using var hold = atLogFlush ? new FlushHold(disk, stopAtFlush: 1, device: "fault.blite-wal") : new FlushHold(disk, stopAtFlush: stopAt);
            long acknowledged = 0;
            for (var attempt = 0; attempt < 20 && !hold.Reached; attempt++)
            {
                acknowledged = Math.Max(acknowledged, CommitUntil(engine, random, () => hold.Reached));
            }

            Assert.True(hold.Reached, $"run {run}: no background checkpoint reached the flush to cut at");

            // Commits go on while the copy's first file flush is held (the writer slot is free
            // then); at later flushes the checkpoint may hold the slot, so none is made.
            for (var i = stopAt == 1 && !atLogFlush ? random.Next(0, 6) : 0; i > 0; i--)
            {
                acknowledged = Commit(engine, random);
            }

            var killed = disk.AfterProcessExit();
            var powerCut = disk.AfterPowerLoss(random);
            cuts++;
            hold.Release();
            await engine.BackgroundCheckpointTask;
            engine.CloseWithoutCheckpoint();

            foreach (var survivor in new[] { killed, powerCut })
            {
                using var reopened = survivor.Open(options);
                using (var read = reopened.BeginRead())
                {
                    Assert.True(CommitLedger.Check(read) >= acknowledged, $"run {run}: acknowledged commit {acknowledged} lost");
                }

                Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid, $"run {run}");
            }
        }

        Assert.Equal(24, cuts);
    }

    /// <summary>
    /// At Normal the counters' transaction is committed with the writer slot held only for its
    /// append, and flushed without it: while that flush is held, commits go through. The finish that follows does not persist counters again; the counts committed
    /// after the persister ran are persisted by the next checkpoint.
    /// </summary>
    [Fact]
    public async Task Commits_go_through_while_the_counters_transaction_of_a_background_checkpoint_is_flushed()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(Durability.Normal));
        var random = new Random(8);
        var persisted = CountPersistedValues(engine, new Random(9));
        Commit(engine, random, initialize: true);
        using var hold = new FlushHold(disk, stopAtFlush: 1, device: "fault.blite-wal", armed: () => persisted.Count > 0);
        var counter = 0L;
        CommitUntil(engine, random, () => hold.Reached, counter: () => ++counter);
        Assert.True(hold.Reached, "no background checkpoint flushed its counters' transaction");
        Assert.Equal(new[] { counter }, persisted);

        // The checkpoint is in its flush of the counters' transaction: the writer slot is free.
        long last = 0;
        var committer = Task.Run(() =>
        {
            for (var i = 0; i < 5; i++)
            {
                last = CommitCounted(engine, random, ++counter);
            }
        });
        await committer.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(0, engine.BackgroundCheckpoints);
        Assert.False(engine.BackgroundCheckpointTask.IsCompleted);

        hold.Release();
        await engine.BackgroundCheckpointTask;
        Assert.Equal(1, engine.BackgroundCheckpoints);
        Assert.Null(engine.WriteFailure);
        Assert.Equal(new[] { counter - 5 }, persisted);
        using (var read = engine.BeginRead())
        {
            Assert.True(read.TryReadCounter(CounterKey, out var seen));
            Assert.Equal(counter, seen);
            Assert.Equal(last, CommitLedger.Check(read));
        }

        engine.Checkpoint();
        Assert.Equal(new[] { counter - 5, counter }, persisted);
        engine.Dispose();
        using var reopened = disk.AfterProcessExit().Open(Options(Durability.Normal));
        using var after = reopened.BeginRead();
        Assert.Equal(last + 1, CommitLedger.Check(after));
    }

    /// <summary>
    /// A kill or power cut while the background checkpoint flushes its counters' transaction, in
    /// its hold of the writer slot before the finish (Full), loses nothing acknowledged. Every
    /// other run lets the checkpoint finish first, with a commit made during the hold
    /// acknowledged, and cuts the power after the restart.
    /// </summary>
    [Fact]
    public async Task A_crash_while_the_counters_transaction_is_flushed_recovers_every_acknowledged_commit()
    {
        for (var run = 0; run < 8; run++)
        {
            var random = new Random(200 + run);
            var disk = new FaultDatabase();
            var options = Options(Durability.Full);
            var engine = disk.Open(options);
            var persisted = CountPersistedValues(engine, new Random(300 + run));
            Commit(engine, random, initialize: true);
            using var hold = new FlushHold(disk, stopAtFlush: 1, device: "fault.blite-wal", armed: () => persisted.Count > 0);
            var counter = 0L;
            long acknowledged = 0;
            for (var attempt = 0; attempt < 20 && !hold.Reached; attempt++)
            {
                acknowledged = Math.Max(acknowledged, CommitUntil(engine, random, () => hold.Reached, counter: () => ++counter));
            }

            Assert.True(hold.Reached, $"run {run}: no background checkpoint flushed its counters' transaction");

            // A commit during the hold: it cannot finish before the flush does.
            var inFlight = Task.Run(() => CommitCounted(engine, new Random(400 + run), ++counter));
            Assert.False(inFlight.IsCompleted);

            // A commit of the test may have flushed an earlier checkpoint's counters' transaction itself.
            var finished = engine.BackgroundCheckpoints;
            var killed = disk.AfterProcessExit();
            var acknowledgedBeforeCut = acknowledged;
            FaultDatabase powerCut;
            if (run % 2 == 0)
            {
                // The power goes while the flush is held: it fails, and with it the commit waiting for it.
                powerCut = disk.AfterPowerLoss(random);
                hold.Release();
                await Assert.ThrowsAnyAsync<BLiteException>(() => inFlight);
                await engine.BackgroundCheckpointTask;
                Assert.Equal(finished, engine.BackgroundCheckpoints);
            }
            else
            {
                // The checkpoint finishes (the commit made during it is acknowledged), then the power goes.
                hold.Release();
                acknowledged = Math.Max(acknowledged, await inFlight.WaitAsync(TimeSpan.FromSeconds(30)));
                await engine.BackgroundCheckpointTask;
                // The commit, made past the threshold, may have started one more once this one was done.
                Assert.True(engine.BackgroundCheckpoints > finished, $"run {run}: the checkpoint did not finish");
                Assert.Null(engine.BackgroundFailure);
                powerCut = disk.AfterPowerLoss(random);
            }

            engine.CloseWithoutCheckpoint();
            foreach (var (survivor, mustHold) in new[] { (killed, acknowledgedBeforeCut), (powerCut, acknowledged) })
            {
                using var reopened = survivor.Open(options);
                using (var read = reopened.BeginRead())
                {
                    Assert.True(CommitLedger.Check(read) >= mustHold, $"run {run}: acknowledged commit {mustHold} lost");
                }

                Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid, $"run {run}");
            }
        }
    }

    /// <summary>
    /// The write of the background checkpoint's own transaction (the counters') fails. Nobody
    /// was told, so the close reports it: at Normal the commits since the last flush may be lost.
    /// Found by the power-loss suite once its cases kept counters (seed 1001217): the close
    /// returned as after a clean checkpoint, because the failed append had marked the failure as
    /// reported to a caller.
    /// </summary>
    [Fact]
    public async Task A_close_reports_a_failed_write_of_the_checkpoints_own_transaction()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options(Durability.Normal));
        var random = new Random(10);
        var armed = 0;
        var persisterRandom = new Random(11);
        engine.SetCounterPersister(tx =>
        {
            disk.Injector.FailWriteAt = disk.Injector.Writes + 1;
            Volatile.Write(ref armed, 1);
            CommitLedger.WriteNext(tx, persisterRandom);
        });
        Commit(engine, random, initialize: true);
        var counter = 0L;
        var last = CommitUntil(engine, random, () => Volatile.Read(ref armed) == 1, counter: () => ++counter);
        await engine.BackgroundCheckpointTask;
        Assert.Equal(1, Volatile.Read(ref armed));
        Assert.NotNull(engine.BackgroundFailure);
        Assert.Contains("Injected", engine.BackgroundFailure!.ToString(), StringComparison.Ordinal);

        var closing = Assert.Throws<BLiteException>(engine.Dispose);
        Assert.Contains("background checkpoint had failed", closing.Message, StringComparison.Ordinal);
        Assert.True(engine.IsClosed);
        using var reopened = disk.AfterProcessExit().Open(Options(Durability.Normal));
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    /// <summary>
    /// An encrypted file's checkpoint records how many frames of the log it copied from were on
    /// disk (docs/encryption.md, "Binding the log to the file"), and at open refuses that log if it
    /// is shorter. The background copy flushes beside commits: a commit's frame that was sealed but
    /// whose write had not reached the device when the copy flushed the log must not be counted,
    /// or a power cut then makes the honest log look like an older copy of itself (found by the
    /// power-loss suite, seed 2500094).
    /// </summary>
    [Fact]
    public async Task An_encrypted_checkpoint_never_counts_a_log_frame_still_being_written_as_on_disk()
    {
        var disk = new FaultDatabase();
        var options = Options(Durability.Normal, encrypted: true);
        var engine = disk.Open(options);
        var random = new Random(6);
        Commit(engine, random, initialize: true);
        // The copy's first log flush (it makes the snapshot it copies durable) is held while a
        // commit starts writing its frame; that write is then held while the copy goes on.
        using var logFlushHold = new FlushHold(disk, stopAtFlush: 1, device: "fault.blite-wal");
        var last = CommitUntil(engine, random, () => logFlushHold.Reached);
        Assert.True(logFlushHold.Reached, "no background checkpoint reached its log flush");
        var counterBefore = engine.VersionCounter;

        using var writeHeld = new ManualResetEventSlim(false);
        using var writeReleased = new ManualResetEventSlim(false);
        var committerThread = -1;
        disk.Injector.OnWrite = device =>
        {
            if (device == "fault.blite-wal" && Environment.CurrentManagedThreadId == Volatile.Read(ref committerThread))
            {
                writeHeld.Set();
                writeReleased.Wait();
            }
        };
        var committer = Task.Run(() =>
        {
            Volatile.Write(ref committerThread, Environment.CurrentManagedThreadId);
            Commit(engine, new Random(7));
        });
        Assert.True(writeHeld.Wait(TimeSpan.FromSeconds(30)), "the commit never wrote its frame");

        // The copy goes on, flushes the log again and commits its version record, while the frame is being written.
        logFlushHold.Release();
        Assert.True(SpinWait.SpinUntil(() => engine.VersionCounter > counterBefore, TimeSpan.FromSeconds(30)), "the checkpoint never committed its version record");

        var powerCut = disk.AfterPowerLoss(random);
        writeReleased.Set();
        await Assert.ThrowsAnyAsync<BLiteException>(() => committer);
        await engine.BackgroundCheckpointTask;
        engine.CloseWithoutCheckpoint();

        using var reopened = powerCut.Open(options);
        using (var read = reopened.BeginRead())
        {
            Assert.Equal(last, CommitLedger.Check(read));
        }

        Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid);
    }

    private static StorageOptions Options(Durability durability, bool encrypted = false) => new()
    {
        Durability = durability,
        PageSize = PageSize,
        WalCheckpointThresholdBytes = Threshold,
        Encryption = encrypted ? BLiteEncryption.WithKey(Encryption.EncryptionTestKeys.Key) : null,
    };

    private static long Commit(StorageEngine engine, Random random, bool initialize = false)
    {
        using var tx = engine.BeginWrite();
        if (initialize)
        {
            CommitLedger.Initialize(tx, dataPages: 4);
            tx.Commit();
            return 0;
        }

        var n = CommitLedger.WriteNext(tx, random);
        tx.Commit();
        return n;
    }

    private const uint CounterKey = 7;

    /// <summary>
    /// Registers a counter persister that records the value of <see cref="CounterKey"/> it persists
    /// and writes a ledger transaction (so its commit has pages to copy, as a stats page is).
    /// </summary>
    private static List<long> CountPersistedValues(StorageEngine engine, Random random)
    {
        var persisted = new List<long>();
        engine.SetCounterPersister(tx =>
        {
            Assert.True(tx.TryReadCounter(CounterKey, out var value));
            lock (persisted)
            {
                persisted.Add(value);
            }

            CommitLedger.WriteNext(tx, random);
        });
        return persisted;
    }

    private static long CommitCounted(StorageEngine engine, Random random, long counter)
    {
        using var tx = engine.BeginWrite();
        var n = CommitLedger.WriteNext(tx, random);
        tx.SetCounter(CounterKey, counter);
        tx.Commit();
        return n;
    }

    /// <param name="counter">When given, each commit also sets <see cref="CounterKey"/> to its next value.</param>
    private static long CommitUntil(StorageEngine engine, Random random, Func<bool> done, int limit = 200, Func<long>? counter = null)
    {
        long last = 0;
        // Commit until a checkpoint starts, then no more: further commits could meet back-pressure
        // and wait for the checkpoint this test is about to hold.
        for (var i = 0; i < limit && !done() && engine.BackgroundCheckpointTask.IsCompleted; i++)
        {
            last = counter is null ? Commit(engine, random) : CommitCounted(engine, random, counter());
        }

        // The flush hook fires on the checkpoint's task; wait until it has actually stopped there
        // (or has finished without reaching the flush asked for).
        SpinWait.SpinUntil(() => done() || engine.BackgroundCheckpointTask.IsCompleted, TimeSpan.FromSeconds(30));
        return last;
    }

    /// <summary>
    /// Holds the Nth flush of <c>device</c> made by a thread other than the test's (the background
    /// checkpoint) until released. The file is flushed only by checkpoints; holding a WAL flush
    /// would also hold every Full commit behind it (group commit).
    /// </summary>
    private sealed class FlushHold : IDisposable
    {
        private readonly FaultDatabase _disk;
        private readonly ManualResetEventSlim _released = new(false);
        private readonly int _testThread = Environment.CurrentManagedThreadId;
        private int _flushes;
        private volatile bool _reached;

        /// <param name="armed">When given, only flushes made once it holds are counted.</param>
        public FlushHold(FaultDatabase disk, int stopAtFlush, string device = "fault.blite", Func<bool>? armed = null)
        {
            _disk = disk;
            disk.Injector.OnFlush = flushed =>
            {
                if (flushed == device && Environment.CurrentManagedThreadId != _testThread && (armed?.Invoke() ?? true) && Interlocked.Increment(ref _flushes) == stopAtFlush)
                {
                    _reached = true;
                    _released.Wait();
                }
            };
        }

        public bool Reached => _reached;

        public void Release() => _released.Set();

        public void Dispose()
        {
            _disk.Injector.OnFlush = null;
            _released.Set();
            _released.Dispose();
        }
    }
}
