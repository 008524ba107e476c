using System.Diagnostics;
using System.Globalization;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// The change feed's end-to-end promise across processes: a writer process commits the ledger
/// loop on a collection with a change feed; a watcher process records every change with its token
/// and resumes from the last recorded token. Each cycle SIGKILLs one of them (chosen at random)
/// after a random number of its acks or records, and starts it again. In the end the watcher's
/// records must be exactly the journal's first events — nothing missing, nothing repeated, in
/// order — and the journal must hold every acknowledged transaction, each complete. Runs at Full
/// and at Normal durability (a kill loses no write already handed to the OS, so an acknowledged
/// Normal commit must survive it too), each with half of the cycles budget.
/// </summary>
public sealed class ChangeFeedKillTests
{
    [Theory]
    [InlineData(Durability.Full)]
    [InlineData(Durability.Normal)]
    public void Watcher_in_another_process_receives_every_committed_change_exactly_once_across_kills_of_both(Durability durability)
    {
        var budget = int.TryParse(Environment.GetEnvironmentVariable("BLITE_CHANGEFEED_KILL_CYCLES"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured)
            ? configured
            : 100;
        var cycles = Math.Max(budget / 2, 4);
        var durabilityArgument = durability.ToString();
        var random = new Random(20261124 + (int)durability);
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, "feed.blite");
        var recordsPath = Path.Combine(directory.Path, "records.txt");
        var writerKills = 0;
        var watcherKills = 0;
        long highestAcknowledged = 0;

        var writer = Worker.Start("feed-writer", path, durabilityArgument);

        // The watcher opens read-only, which never creates the database: the writer goes first.
        writer.WaitUntilReady();
        var watcher = Worker.Start("feed-watcher", path, recordsPath);
        try
        {
            for (var cycle = 0; cycle < cycles; cycle++)
            {
                var killWriter = random.Next(2) == 0;
                var victim = killWriter ? writer : watcher;
                victim.WaitForLines(victim.Lines + random.Next(1, 25));
                victim.Kill();
                if (killWriter)
                {
                    writerKills++;
                    highestAcknowledged = Math.Max(highestAcknowledged, writer.HighestAck);
                    writer = Worker.Start("feed-writer", path, durabilityArgument);
                }
                else
                {
                    watcherKills++;
                    watcher = Worker.Start("feed-watcher", path, recordsPath);
                }
            }
        }
        finally
        {
            writer.Kill();
            watcher.Kill();
        }

        highestAcknowledged = Math.Max(highestAcknowledged, writer.HighestAck);
        ChangeFeedWorkload.RecoverRecords(recordsPath);
        var records = File.ReadAllLines(recordsPath);
        var journal = ReadJournal(path, durability);

        Assert.True(writerKills >= cycles / 4 && watcherKills >= cycles / 4, $"kills: writer {writerKills}, watcher {watcherKills} of {cycles}");
        Assert.True(records.Length >= cycles, $"the watcher recorded only {records.Length} changes");
        Assert.True(records.Length <= journal.Count, $"the watcher recorded {records.Length} changes, the journal holds {journal.Count}");
        for (var i = 0; i < records.Length; i++)
        {
            Assert.True(journal[i] == records[i], $"record {i} is '{records[i]}', the journal's change {i} is '{journal[i]}'");
        }

        // The journal holds transactions 1..last of the ledger loop, each whole, and last covers every ack.
        var transactions = journal.Select(line => line.Split(' ')).GroupBy(parts => parts[0].Split(':')[0]).ToList();
        Assert.True(transactions.Count >= highestAcknowledged, $"acknowledged transaction {highestAcknowledged} is missing: the journal holds {transactions.Count}");
        Assert.True(highestAcknowledged >= 50, $"only {highestAcknowledged} transactions were acknowledged: too few to have crossed checkpoints");
        for (var n = 1; n <= transactions.Count; n++)
        {
            var expected = new List<string> { $"Insert {n}" };
            if (n > 1)
            {
                expected.Add($"Update {n - 1}");
            }

            if (n % 5 == 0)
            {
                expected.Add($"Delete {n - 3}");
            }

            var events = transactions[n - 1].ToList();
            Assert.Equal(expected, events.Select(parts => parts[1] + " " + parts[2]));
            Assert.Equal(n.ToString(CultureInfo.InvariantCulture) + ":end", events[^1][0]);
        }
    }

    /// <summary>Every journaled change as the watcher records it, read after recovery in this process.</summary>
    private static List<string> ReadJournal(string path, Durability durability)
    {
        using var database = DocumentDatabase.Open(path, ChangeFeedWorkload.WriterOptions(durability));
        var report = database.Verify();
        Assert.True(report.IsValid, report.ToString());
        var lines = new List<string>();
        var batch = new List<JournalEvent>();
        var position = database.ResolveStart(ChangeFeedStart.Oldest);
        Assert.Equal("0:end", position.ToString());
        using var read = database.BeginRead();
        var tree = ChangeJournal.Open(read, database.Catalog);
        do
        {
            batch.Clear();
            ChangeJournal.Read(read, tree, position, 1024, batch, path);
            foreach (var change in batch)
            {
                var id = BsonDocument.FromBytes(change.Id, database.Fields)["_id"].AsInt64;
                lines.Add(string.Create(CultureInfo.InvariantCulture, $"{change.Token} {change.Operation} {id}"));
                position = change.Token;
            }
        }
        while (batch.Count > 0);

        return lines;
    }

    /// <summary>A crash worker whose output is read as it comes: "ready", then "ack n" or "got n" lines.</summary>
    private sealed class Worker
    {
        private readonly Process _process;
        private readonly SemaphoreSlim _lineArrived = new(0);
        private readonly ManualResetEventSlim _ready = new();
        private readonly System.Text.StringBuilder _errors = new();
        private int _lines;
        private long _highestAck;
        private volatile bool _ended;

        private Worker(string[] arguments)
        {
            _process = CrashWorkerProcess.Start(arguments);
            _process.OutputDataReceived += (_, e) =>
            {
                if (e.Data is null)
                {
                    _ended = true;
                }
                else if (e.Data.StartsWith("ack ", StringComparison.Ordinal))
                {
                    Interlocked.Exchange(ref _highestAck, long.Parse(e.Data.AsSpan(4), CultureInfo.InvariantCulture));
                }

                if (e.Data == "ready")
                {
                    _ready.Set();
                }
                else if (e.Data is not null)
                {
                    Interlocked.Increment(ref _lines);
                }

                _lineArrived.Release();
            };
            _process.ErrorDataReceived += (_, e) =>
            {
                lock (_errors)
                {
                    _errors.AppendLine(e.Data);
                }
            };
            _process.BeginOutputReadLine();
            _process.BeginErrorReadLine();
        }

        public int Lines => Volatile.Read(ref _lines);

        public long HighestAck => Interlocked.Read(ref _highestAck);

        public static Worker Start(params string[] arguments) => new(arguments);

        public void WaitUntilReady()
        {
            while (!_ready.IsSet)
            {
                if (_ended || !_lineArrived.Wait(TimeSpan.FromSeconds(60)))
                {
                    lock (_errors)
                    {
                        Assert.Fail($"the worker never became ready: {_errors}");
                    }
                }
            }
        }

        public void WaitForLines(int count)
        {
            while (Lines < count)
            {
                if (_ended || !_lineArrived.Wait(TimeSpan.FromSeconds(60)))
                {
                    lock (_errors)
                    {
                        Assert.Fail($"the worker stopped before {count} lines (it printed {Lines}): {_errors}");
                    }
                }
            }
        }

        public void Kill()
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
            }

            // Waits for the output already printed, so acks printed before death are counted.
            _process.WaitForExit();
            _process.Dispose();
        }
    }
}
