using BLite.Core.Storage;
using BLite.Core.Storage.Devices;
using BLite.Core.Tests.Storage.Faults;

namespace BLite.Core.Tests.Storage;

/// <summary>A database file and WAL on fault-injecting devices sharing one injector.</summary>
internal sealed class FaultDatabase
{
    public FaultDatabase(byte[]? file = null, byte[]? wal = null)
    {
        Injector = new FaultInjector();
        File = new FaultInjectingDevice(Injector, "fault.blite", file ?? []);
        Wal = new FaultInjectingDevice(Injector, "fault.blite-wal", wal ?? []);
    }

    public FaultInjector Injector { get; }

    public FaultInjectingDevice File { get; }

    public FaultInjectingDevice Wal { get; }

    /// <summary>
    /// Opens the engine on the two devices. Its log is zero-filled ahead on the committing thread,
    /// so that the I/O operations a test numbers its power cuts by come in the same order on every
    /// run (the thread-pool filler is exercised on real files, WalPreallocationTests and the
    /// process-kill tests).
    /// </summary>
    public StorageEngine Open(StorageOptions options)
    {
        options.FillsLogAheadOnCommitPath = true;
        return StorageEngine.Open(File, Wal, options);
    }

    /// <summary>What a machine that lost power would find on its disk, given <paramref name="random"/> fates for unflushed writes.</summary>
    public FaultDatabase AfterPowerLoss(Random random)
    {
        Injector.CutPower();
        return new FaultDatabase(File.SurvivingContent(random), Wal.SurvivingContent(random));
    }

    /// <summary>What the next process would find after this one died (or closed): everything written, flushed or not.</summary>
    public FaultDatabase AfterProcessExit() => new(File.VisibleContent(), Wal.VisibleContent());
}
