using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage;
using BLite.Core.Tests.Storage.Faults;

namespace BLite.Core.Tests.Backup;

public sealed class BackupFailureTests
{
    [Fact]
    public void Backup_killed_halfway_never_leaves_a_file_under_the_destination_name_and_the_next_backup_succeeds()
    {
        using var directory = new TempDirectory();
        var source = Path.Combine(directory.Path, "source.blite");
        var destination = Path.Combine(directory.Path, "backup.blite");
        Fill(source, 3_000);
        var random = new Random(31);
        var killedMidCopy = 0;
        for (var cycle = 0; cycle < 4; cycle++)
        {
            var killAfter = random.Next(1, 30);
            using var child = CrashWorkerProcess.Start("backup", source, destination, killAfter.ToString(System.Globalization.CultureInfo.InvariantCulture));
            var progressLines = 0;
            string? line;
            while ((line = child.StandardOutput.ReadLine()) is not null)
            {
                Assert.NotEqual("done", line);
                if (line.StartsWith("progress ", StringComparison.Ordinal) && ++progressLines == killAfter)
                {
                    child.Kill(entireProcessTree: true);
                    break;
                }
            }

            child.WaitForExit();
            Assert.Equal(killAfter, progressLines);
            Assert.NotEqual(0, child.ExitCode);
            if (File.Exists(destination + DocumentDatabase.PartialBackupSuffix))
            {
                killedMidCopy++;
            }

            Assert.False(File.Exists(destination), $"cycle {cycle}: a backup killed after {progressLines * 50} documents left '{destination}'");
        }

        Assert.Equal(4, killedMidCopy);
        using (var database = DocumentDatabase.Open(source))
        {
            Assert.Equal(3_000, database.BackupTo(destination, null, CancellationToken.None));
        }

        Assert.False(File.Exists(destination + DocumentDatabase.PartialBackupSuffix));
        using var restored = DocumentDatabase.Open(destination);
        Assert.True(restored.Verify().IsValid);
        Assert.Equal(3_000, restored.GetCollection("docs").Count());
    }

    [Fact]
    public void Backup_to_a_full_disk_fails_cleanly_and_leaves_the_source_untouched()
    {
        using var directory = new TempDirectory();
        var source = Path.Combine(directory.Path, "source.blite");
        var destination = Path.Combine(directory.Path, "backup.blite");
        Fill(source, 2_000);
        var injector = new FaultInjector { FailWriteAt = 4, FailAsDiskFull = true };

        using (var database = DocumentDatabase.Open(source))
        {
            var error = Assert.ThrowsAny<BLiteException>(() => database.BackupTo(destination, null, CancellationToken.None,
                (path, options) =>
                {
                    // The failing write must be the copy's own, not zeros the log filler writes ahead on another thread.
                    options.FillsLogAheadOnCommitPath = true;
                    return StorageEngine.Open(new FaultInjectingDevice(injector, path), new FaultInjectingDevice(injector, path + "-wal"), options);
                }));
            Assert.True(error.ToString().Contains("space", StringComparison.OrdinalIgnoreCase), error.ToString());
            Assert.True(injector.Writes >= 4, $"the copy failed after {injector.Writes} writes, before the disk was full");

            Assert.False(File.Exists(destination));
            Assert.False(File.Exists(destination + DocumentDatabase.PartialBackupSuffix));
            Assert.True(database.Verify().IsValid);
            database.GetCollection("docs").Insert(new BsonDocument { ["_id"] = -1 });
            Assert.Equal(2_001, database.GetCollection("docs").Count());
        }

        using var reopened = DocumentDatabase.Open(source);
        Assert.Equal(2_001, reopened.GetCollection("docs").Count());
    }

    [Fact]
    public void Backup_of_100k_documents_with_16_MiB_in_the_log_is_complete_and_verifies()
    {
        using var directory = new TempDirectory();
        var source = Path.Combine(directory.Path, "big.blite");
        var destination = Path.Combine(directory.Path, "big-backup.blite");
        var options = new StorageOptions { Durability = Durability.Normal, WalCheckpointThresholdBytes = 64L << 20 };
        using var database = DocumentDatabase.Open(source, options, [new CollectionDefinition("docs", [new IndexDefinition("byGroup", "group")], changeFeed: ChangeFeedMode.On)]);
        var docs = database.GetCollection("docs");
        for (var start = 0; start < 100_000; start += 10_000)
        {
            docs.InsertMany(Enumerable.Range(start, 10_000).Select(i => new BsonDocument { ["_id"] = i, ["group"] = i % 97, ["body"] = new string('x', 120) }));
        }

        var walBytes = database.Storage.GetStatistics().WalBytes;
        Assert.True(walBytes >= 16L << 20, $"the log holds only {walBytes} bytes");
        var reported = new List<(long Done, long Total)>();

        var copied = database.BackupTo(destination, (done, total) => reported.Add((done, total)), CancellationToken.None);

        Assert.Equal(100_000, copied);
        Assert.Equal((0L, 100_000L), reported[0]);
        Assert.Equal((100_000L, 100_000L), reported[^1]);
        using var restored = DocumentDatabase.Open(destination, new StorageOptions { ReadOnly = true });
        Assert.True(restored.Verify().IsValid);
        Assert.Equal(100_000, restored.GetCollection("docs").Count());
        Assert.Equal(100_000 / 97 + 1, restored.GetCollection("docs").FindByIndex("byGroup", 0).Count());
        Assert.Equal(database.GetJournalBounds(), restored.GetJournalBounds());
    }

    private static void Fill(string path, int count)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions { Durability = Durability.Normal }, [new CollectionDefinition("docs", changeFeed: ChangeFeedMode.On)]);
        var docs = database.GetCollection("docs");
        for (var start = 0; start < count; start += 500)
        {
            docs.InsertMany(Enumerable.Range(start, Math.Min(500, count - start)).Select(i => new BsonDocument { ["_id"] = i, ["body"] = new string('d', 300 + (i % 200)) }));
        }
    }
}
