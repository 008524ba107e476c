using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using Xunit.Abstractions;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>
/// Power cut at every I/O step of a checkpoint of an encrypted database: the pages, the version
/// map pages, the flush, the version record, the flush, the log restart. Every
/// acknowledged commit survives whatever the fates of the unflushed writes, and the crash window
/// between the record's commit and the log's restart (where the log the checkpoint copied from
/// is still there) is reached and recovered from; an older copy of that log put back there is
/// refused.
/// </summary>
public class VersionMapCrashTests(ITestOutputHelper output)
{
    private const int Commits = 6;
    private const int FatesPerStep = 16;

    [Fact]
    public void A_power_cut_at_every_step_of_a_checkpoint_loses_no_acknowledged_commit()
    {
        var steps = Run(powerLossAtStep: 0).Steps;
        Assert.True(steps >= 7, $"the checkpoint took only {steps} mutating operations");

        var reachedWindow = 0;
        var beforeCommit = 0;
        var afterRestart = 0;
        var cases = 0;
        for (var step = 1; step <= steps; step++)
        {
            var run = Run(step);
            Assert.True(run.Disk.Injector.IsPoweredOff, $"the power was not cut at step {step}");
            for (var fate = 0; fate < FatesPerStep; fate++)
            {
                var survivor = run.Disk.AfterPowerLoss(new Random((step * 100) + fate));
                var survivingFile = survivor.File.VisibleContent();
                using var engine = survivor.Open(Options());
                using (var read = engine.BeginRead())
                {
                    Assert.Equal(Commits, CommitLedger.Check(read));
                }

                Assert.True(engine.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid);

                // Reopening runs a checkpoint of its own when the log still held frames.
                var counter = engine.VersionCounter!.Value - run.CounterBefore;
                switch (counter)
                {
                    case 1 when run.CommittedInProcess:
                        afterRestart++;
                        break;
                    case 1:
                        beforeCommit++;
                        break;
                    case 2:
                        // The record reached the disk (flushed, or an unflushed write that survived).
                        reachedWindow++;
                        CheckOlderLogRefused(survivingFile, run.OlderLog);
                        break;
                    default:
                        Assert.Fail($"step {step}: {counter} checkpoints committed");
                        break;
                }

                cases++;
            }
        }

        output.WriteLine($"{steps} steps, {cases} cases: {beforeCommit} cut before the record's commit, {reachedWindow} in the window, {afterRestart} after the log's restart");
        Assert.True(beforeCommit > 0 && reachedWindow > 0, $"{beforeCommit} cuts before the record's commit, {reachedWindow} in the window before the log's restart, {afterRestart} after it ({cases} cases)");
    }

    /// <summary>
    /// Regression (found by 6,000 extra power-loss cases): a power cut while creation writes the
    /// clear header page can tear it so that the record's sector survives without the magic, or
    /// the magic without a valid record. Either is a creation cut short, and the next open
    /// creates the database again.
    /// </summary>
    [Fact]
    public void A_power_cut_tearing_the_header_page_at_creation_is_created_again()
    {
        var recordWithoutMagic = 0;
        var magicWithoutRecord = 0;
        for (var fate = 0; fate < 200; fate++)
        {
            var disk = new FaultDatabase();
            disk.Injector.PowerLossAtOperation = 3;
            Assert.Throws<IOException>(() => disk.Open(Options()));
            var survivor = disk.AfterPowerLoss(new Random(fate));
            var header = survivor.File.VisibleContent();
            var hasMagic = header.Length >= 8 && header.AsSpan(0, 8).SequenceEqual("BLiteENC"u8);
            var recordBytes = header.Length > 1024 && header.AsSpan(1024, 104).ContainsAnyExcept((byte)0);
            recordWithoutMagic += !hasMagic && recordBytes ? 1 : 0;
            magicWithoutRecord += hasMagic && !recordBytes ? 1 : 0;

            using var engine = survivor.Open(Options());
            using var tx = engine.BeginWrite();
            CommitLedger.Initialize(tx, dataPages: 2);
            tx.Commit();
        }

        Assert.True(recordWithoutMagic > 0 && magicWithoutRecord > 0, $"{recordWithoutMagic} torn headers kept only the record, {magicWithoutRecord} only the magic");
    }

    /// <summary>The crash window's disk with the log replaced by an older copy of itself (fewer frames than the checkpoint saw).</summary>
    private static void CheckOlderLogRefused(byte[] survivingFile, byte[] olderLog)
    {
        var replaced = new FaultDatabase(survivingFile, olderLog);
        var exception = Assert.Throws<BLiteCorruptionException>(() => replaced.Open(Options()));
        Assert.Contains("older copy of itself", exception.Message, StringComparison.Ordinal);
    }

    private static Scenario Run(int powerLossAtStep)
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options());
        var random = new Random(18);
        using (var init = engine.BeginWrite())
        {
            CommitLedger.Initialize(init, dataPages: 5);
            init.Commit();
        }

        byte[]? olderLog = null;
        for (var i = 1; i <= Commits; i++)
        {
            using var tx = engine.BeginWrite();
            CommitLedger.WriteNext(tx, random);
            tx.Commit();
            if (i == 2)
            {
                olderLog = disk.Wal.VisibleContent();
            }
        }

        var counterBefore = engine.VersionCounter!.Value;
        var before = disk.Injector.MutatingOperations;
        if (powerLossAtStep > 0)
        {
            disk.Injector.PowerLossAtOperation = before + powerLossAtStep;
        }

        try
        {
            engine.Checkpoint();
        }
        catch (BLiteException) when (disk.Injector.IsPoweredOff)
        {
            // The cut surfaced as a failed checkpoint, as it would in a real process.
        }

        var steps = (int)(disk.Injector.MutatingOperations - before);
        return new Scenario(disk, counterBefore, steps, engine.VersionCounter!.Value > counterBefore, olderLog!);
    }

    private static StorageOptions Options() => new()
    {
        PageSize = 4096,
        Durability = Durability.Full,
        WalCheckpointThresholdBytes = 1 << 24,
        Encryption = BLiteEncryption.WithKey(EncryptionTestKeys.Key),
    };

    /// <param name="CommittedInProcess">Whether the version record's write and flush completed before the cut.</param>
    /// <param name="OlderLog">The log as it was after the second of the checkpointed commits.</param>
    private sealed record Scenario(FaultDatabase Disk, long CounterBefore, int Steps, bool CommittedInProcess, byte[] OlderLog);
}
