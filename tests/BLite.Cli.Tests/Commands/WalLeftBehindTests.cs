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

    [Fact]
    public void A_damaged_wal_header_is_reported_by_info_recovered_by_check_and_never_read_as_an_empty_log()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path, orders: 5);
        LeaveOneCommitInTheWal(path);
        Flip(path + "-wal", 26);
        var walBefore = File.ReadAllBytes(path + "-wal");

        var info = BliteProcess.Run("info", path);
        var check = BliteProcess.Run("check", path);

        CliAssert.Succeeded(info);
        Assert.Contains(info.StdoutLines, line => line.StartsWith("wal state", StringComparison.Ordinal) && line.Contains("damaged header in front of frames", StringComparison.Ordinal));
        CliAssert.Succeeded(check);
        Assert.Equal(walBefore, File.ReadAllBytes(path + "-wal"));

        // With the first frame damaged too, nothing verifies the frames: check refuses, naming the log.
        Flip(path + "-wal", 40 + 8);
        var refused = BliteProcess.Run("check", path);
        CliAssert.FailedWithOneLine(refused, 2, path + "-wal");
        Assert.Contains("header is damaged", refused.Stderr, StringComparison.Ordinal);
    }

    private static void Flip(string path, long offset)
    {
        var bytes = File.ReadAllBytes(path);
        bytes[offset] ^= 0x5A;
        File.WriteAllBytes(path, bytes);
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

        // As a killed process leaves it: no checkpoint, no flush. Disposing the devices under the
        // open engine left its log's zero-filling ahead running beside the test's reads of the log.
        engine.CloseWithoutCheckpoint();
    }
}
