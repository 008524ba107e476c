using System.Globalization;
using System.Text;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.CrashWorker;

/// <summary>
/// The two processes of the change feed kill test.
/// <c>feed-writer &lt;path&gt; &lt;durability&gt;</c>: the ledger loop (<see cref="LedgerLoop"/>) on
/// collection "events", which has a change feed, in the given durability (Full or Normal: a kill
/// loses no OS-buffered write, so Normal makes the same promise here) with frequent checkpoints;
/// prints "ack n" after each commit.
/// <c>feed-watcher &lt;path&gt; &lt;records&gt;</c>: a watcher in its own process. It appends
/// one line per change received to the records file, "token operation id", so what it did with
/// a change and the token to resume from are stored together; on start it drops a line torn by
/// a kill and resumes after the last whole line's token. It polls the journal through
/// <see cref="ChangeFeedPoller"/> (read-only opens: the writer holds the database). Prints
/// "got n" per change.
/// </summary>
internal static class ChangeFeedWorkload
{
    public static int RunWriter(string path, Durability durability)
    {
        using var database = DocumentDatabase.Open(path, WriterOptions(durability), [new CollectionDefinition("events", changeFeed: ChangeFeedMode.On), new CollectionDefinition("meta")]);
        LedgerLoop.Run(database, "events", Event, Console.Out);
        return 0;
    }

    public static StorageOptions WriterOptions(Durability durability) => new()
    {
        Durability = durability,
        PageSize = 4096,
        WalCheckpointThresholdBytes = 96 * 1024,
    };

    public static BsonDocument Event(long id, int revision) => new() { ["_id"] = id, ["revision"] = revision, ["pad"] = new string('e', (int)(id * 13 % 300)) };

    public static int RunWatcher(string path, string recordsPath)
    {
        var token = RecoverRecords(recordsPath);
        var poller = new ChangeFeedPoller(path);
        using var wake = WakeOnWrite(path);
        using var records = new FileStream(recordsPath, FileMode.Append, FileAccess.Write, FileShare.Read);
        var output = Console.Out;
        output.WriteLine("ready");
        output.Flush();
        var received = 0;
        while (true)
        {
            var (changes, fields) = poller.Read(token, DocumentDatabase.WatchBatchSize);
            if (changes.Count == 0)
            {
                // The writer's appends to the log wake the wait; the bound covers a missed notification.
                wake.Changed.WaitOne(TimeSpan.FromMilliseconds(50));
                continue;
            }

            foreach (var change in changes)
            {
                var id = BsonDocument.FromBytes(change.Id, fields)["_id"].AsInt64;
                records.Write(Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{change.Token} {change.Operation} {id}\n")));
                records.Flush();
                token = change.Token;
                output.WriteLine("got " + (++received).ToString(CultureInfo.InvariantCulture));
                output.Flush();
            }
        }
    }

    /// <summary>Signals <see cref="FileWake.Changed"/> whenever another process writes the database or its log.</summary>
    private static FileWake WakeOnWrite(string path)
    {
        var changed = new AutoResetEvent(false);
        var watcher = new FileSystemWatcher(Path.GetDirectoryName(Path.GetFullPath(path))!, Path.GetFileName(path) + "*")
        {
            NotifyFilter = NotifyFilters.LastWrite | NotifyFilters.Size,
        };
        watcher.Changed += (_, _) => changed.Set();
        watcher.EnableRaisingEvents = true;
        return new FileWake(watcher, changed);
    }

    private sealed record FileWake(FileSystemWatcher Watcher, AutoResetEvent Changed) : IDisposable
    {
        public void Dispose()
        {
            Watcher.Dispose();
            Changed.Dispose();
        }
    }

    /// <summary>The token after the last whole record line; a torn last line (no newline) is cut off.</summary>
    public static ChangeFeedToken RecoverRecords(string recordsPath)
    {
        if (!File.Exists(recordsPath))
        {
            return ChangeFeedToken.Parse("0:end");
        }

        var bytes = File.ReadAllBytes(recordsPath);
        var end = Array.LastIndexOf(bytes, (byte)'\n') + 1;
        if (end < bytes.Length)
        {
            using var file = new FileStream(recordsPath, FileMode.Open, FileAccess.Write);
            file.SetLength(end);
        }

        if (end == 0)
        {
            return ChangeFeedToken.Parse("0:end");
        }

        var lines = Encoding.UTF8.GetString(bytes, 0, end).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return ChangeFeedToken.Parse(lines[^1].Split(' ')[0]);
    }
}
