using BLite.Core.Storage;
using BLite.Core.Storage.Devices;

namespace BLite.Cli.Tests.Commands;

/// <summary>
/// A database whose last process stopped after committing but before checkpointing: info reports
/// the pending WAL without applying it, and checkpoint applies it.
/// </summary>
public class WalLeftBehindTests
{
    [Fact]
    public void Info_reports_committed_transactions_still_in_the_wal_and_checkpoint_applies_them()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5);
        LeaveOneCommitInTheWal(path);
        var walBefore = File.ReadAllBytes(path + "-wal");

        var info = BliteProcess.Run("info", path);

        CliAssert.Succeeded(info);
        var state = info.StdoutLines.Single(line => line.StartsWith("wal state", StringComparison.Ordinal));
        Assert.Matches(@"^wal state +1 committed transaction\(s\) in \d+ frame\(s\) not yet checkpointed; the next open applies them$", state);
        Assert.Equal(walBefore, File.ReadAllBytes(path + "-wal"));

        var checkpoint = BliteProcess.Run("checkpoint", path);

        CliAssert.Succeeded(checkpoint);
        Assert.Equal("checkpoint complete: 1 pending committed transaction(s) applied; wal state: empty: every commit is in the database file\n", checkpoint.Stdout);
        var after = BliteProcess.Run("info", path);
        Assert.Contains("wal state  empty: every commit is in the database file", after.StdoutLines);
        CliAssert.Succeeded(BliteProcess.Run("check", path));
    }

    /// <summary>
    /// Commits a transaction that rewrites the catalog page with its own content (so the database
    /// stays consistent), then drops the engine without closing it, as a killed process would:
    /// the commit is durable in the WAL and has not been checkpointed.
    /// </summary>
    private static void LeaveOneCommitInTheWal(string path)
    {
        var file = FileDevice.Open(path, FileMode.Open, exclusive: false);
        var wal = FileDevice.Open(StorageEngine.WalPathFor(path), FileMode.OpenOrCreate, exclusive: false);
        var engine = StorageEngine.Open(file, wal, new StorageOptions { Durability = Durability.Full });
        using (var write = engine.BeginWrite())
        {
            _ = write.WritePage(PageIds.Catalog);
            write.Commit();
        }

        wal.Dispose();
        file.Dispose();
    }
}
