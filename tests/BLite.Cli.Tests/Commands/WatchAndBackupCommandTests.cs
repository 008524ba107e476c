using System.Diagnostics;
using System.Text.Json;
using BLite.Bson;
using BLite.Core;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Cli.Tests.Commands;

public class WatchAndBackupCommandTests
{
    [Fact]
    public void Watch_from_oldest_prints_each_change_as_a_json_line_and_resumes_after_a_printed_token()
    {
        using var directory = new TempDirectory();
        var path = directory.File("feed.blite");
        using (var database = CreateFeedDatabase(path))
        {
            var events = database.GetCollection("events");
            using (var write = database.BeginWrite())
            {
                events.Insert(write, new BsonDocument { ["_id"] = 1, ["kind"] = "a" });
                events.Insert(write, new BsonDocument { ["_id"] = 2, ["kind"] = "b" });
                write.Commit();
            }

            events.Delete(1);
        }

        var all = BliteProcess.Run("watch", path, "events", "--from", "oldest", "--count", "3");
        CliAssert.Succeeded(all);
        var lines = all.StdoutLines.Select(line => JsonDocument.Parse(line).RootElement).ToList();
        Assert.Equal(["insert", "insert", "delete"], lines.Select(l => l.GetProperty("operation").GetString()));
        Assert.Equal(["1:0", "1:end", "2:end"], lines.Select(l => l.GetProperty("token").GetString()));
        Assert.Equal([false, true, true], lines.Select(l => l.GetProperty("last").GetBoolean()));
        Assert.Equal("b", lines[1].GetProperty("document").GetProperty("kind").GetString());
        Assert.False(lines[2].TryGetProperty("document", out _));

        var resumed = BliteProcess.Run("watch", path, "--from", "1:0", "--count", "2");
        CliAssert.Succeeded(resumed);
        Assert.Equal(["1:end", "2:end"], resumed.StdoutLines.Select(l => JsonDocument.Parse(l).RootElement.GetProperty("token").GetString()));
    }

    [Fact]
    public async Task Watch_follows_a_database_another_engine_is_writing_and_ends_cleanly_on_ctrl_c()
    {
        using var directory = new TempDirectory();
        var path = directory.File("feed.blite");
        using var database = CreateFeedDatabase(path);
        var events = database.GetCollection("events");
        using var watch = Start("watch", path, "events");
        // Drained all along: a watcher blocked on a full stdout pipe could not act on Ctrl-C.
        var received = new System.Collections.Concurrent.ConcurrentQueue<JsonElement>();
        var drain = Task.Run(async () =>
        {
            while (await watch.StandardOutput.ReadLineAsync() is { } line)
            {
                received.Enqueue(JsonDocument.Parse(line).RootElement);
            }
        });
        var nextId = 1;
        while (received.Count < 3)
        {
            // Commits (each flushed to disk) keep coming until the watcher, which starts at "now", has printed three.
            Assert.False(drain.IsCompleted, "blite watch stopped printing before three changes");
            events.Insert(new BsonDocument { ["_id"] = nextId++ });
        }

        using (var interrupt = Process.Start("kill", ["-INT", watch.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            interrupt.WaitForExit();
        }

        Assert.True(watch.WaitForExit(TimeSpan.FromSeconds(60)), "blite watch did not end on SIGINT");
        Assert.Equal(0, watch.ExitCode);

        // Lines printed before the interrupt are whole JSON lines too, and nothing is skipped.
        await drain;
        var ids = received.Select(l => l.GetProperty("id").GetInt32()).ToList();
        Assert.Equal(Enumerable.Range(ids[0], ids.Count), ids);
        Assert.All(received, l => Assert.Equal("insert", l.GetProperty("operation").GetString()));
    }

    [Fact]
    public void Watch_of_a_collection_without_a_change_feed_is_refused()
    {
        using var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        TestDatabases.CreateShop(path);

        CliAssert.FailedWithOneLine(BliteProcess.Run("watch", path, "orders"), 3, "has no change feed");
        CliAssert.FailedWithOneLine(BliteProcess.Run("watch", path, "--from", "yesterday"), 1, "--from needs");
    }

    [Fact]
    public void Backup_writes_a_verified_copy_with_the_journal_while_another_engine_holds_the_database()
    {
        using var directory = new TempDirectory();
        var path = directory.File("feed.blite");
        var copy = directory.File("copy.blite");
        using (var database = CreateFeedDatabase(path))
        {
            database.GetCollection("events").InsertMany(Enumerable.Range(1, 500).Select(i => new BsonDocument { ["_id"] = i }));

            var result = BliteProcess.Run("backup", path, copy);

            CliAssert.Succeeded(result);
            Assert.StartsWith($"backed up '{path}' to '{copy}': 500 documents", result.Stdout);
            CliAssert.FailedWithOneLine(BliteProcess.Run("backup", path, copy), 3, "already exists");
        }

        CliAssert.Succeeded(BliteProcess.Run("check", copy));
        using var restored = DocumentDatabase.Open(copy);
        Assert.Equal(500, restored.GetCollection("events").Count());
        Assert.Equal(new JournalBounds(1, 1), restored.GetJournalBounds());
    }

    private static DocumentDatabase CreateFeedDatabase(string path) =>
        DocumentDatabase.Open(path, new StorageOptions(), [new CollectionDefinition("events", changeFeed: ChangeFeedMode.On)]);

    private static Process Start(params string[] args)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args.Prepend(BliteProcess.ExecutablePath))
        {
            start.ArgumentList.Add(arg);
        }

        return Process.Start(start) ?? throw new InvalidOperationException("dotnet could not be started.");
    }
}
