using System.Globalization;
using System.Text;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.CrashWorker;

/// <summary>
/// The two processes of the change feed kill test.
/// <c>feed-writer &lt;path&gt;</c>: the ledger loop (<see cref="LedgerLoop"/>) on collection
/// "events", which has a change feed, in Full durability with frequent checkpoints; prints
/// "ack n" after each commit.
/// <c>feed-watcher &lt;path&gt; &lt;records&gt;</c>: a watcher in its own process. It appends
/// one line per change received to the records file, "token operation id", so what it did with
/// a change and the token to resume from are stored together; on start it drops a line torn by
/// a kill and resumes after the last whole line's token. It opens the database read-only (the
/// writer holds it), reads everything after its token, closes, and polls again; a read that
/// meets a checkpoint of the writer is retried on a fresh open. Prints "got n" per change.
/// </summary>
internal static class ChangeFeedWorkload
{
    public static int RunWriter(string path)
    {
        using var database = DocumentDatabase.Open(path, WriterOptions(), [new CollectionDefinition("events", changeFeed: ChangeFeedMode.On), new CollectionDefinition("meta")]);
        LedgerLoop.Run(database, "events", Event, Console.Out);
        return 0;
    }

    public static StorageOptions WriterOptions() => new()
    {
        Durability = Durability.Full,
        PageSize = 4096,
        WalCheckpointThresholdBytes = 96 * 1024,
    };

    public static BsonDocument Event(long id, int revision) => new() { ["_id"] = id, ["revision"] = revision, ["pad"] = new string('e', (int)(id * 13 % 300)) };

    public static int RunWatcher(string path, string recordsPath)
    {
        var token = RecoverRecords(recordsPath);
        using var records = new FileStream(recordsPath, FileMode.Append, FileAccess.Write, FileShare.Read);
        var output = Console.Out;
        output.WriteLine("ready");
        output.Flush();
        while (true)
        {
            var received = 0;
            try
            {
                received = ReadAvailable(path, ref token, records, output);
            }
            catch (BLiteException exception) when (exception is not BLiteCorruptionException and not BLiteChangeFeedExpiredException)
            {
                // The writer checkpointed under this read-only snapshot: open a fresh one.
                received = -1;
            }

            if (received == 0)
            {
                // Another process's commits cannot wake this one: poll.
                Thread.Sleep(2);
            }
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

    private static int ReadAvailable(string path, ref ChangeFeedToken token, FileStream records, TextWriter output)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions { ReadOnly = true });
        var start = database.ResolveStart(ChangeFeedStart.After(token));
        var received = 0;
        var batch = new List<JournalEvent>();
        while (true)
        {
            batch.Clear();
            using (var read = database.BeginRead())
            {
                ChangeJournal.Read(read, ChangeJournal.Open(read, database.Catalog), start, DocumentDatabase.WatchBatchSize, batch, path);
            }

            if (batch.Count == 0)
            {
                return received;
            }

            foreach (var change in batch)
            {
                var id = BsonDocument.FromBytes(change.Id, database.Fields)["_id"].AsInt64;
                var line = Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{change.Token} {change.Operation} {id}\n"));
                records.Write(line);
                records.Flush();
                token = change.Token;
                start = token;
                received++;
                output.WriteLine("got " + received.ToString(CultureInfo.InvariantCulture));
                output.Flush();
            }
        }
    }
}
