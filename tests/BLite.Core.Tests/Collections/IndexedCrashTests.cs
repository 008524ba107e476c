using System.Globalization;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage;
using Xunit.Abstractions;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// A child process (CrashWorker "indexed" mode) commits transactions that insert, rewrite and
/// delete documents under three secondary indexes; the test kills it with SIGKILL at a random
/// moment, reopens, and checks that every acknowledged commit is there, that the collection is
/// exactly the state after the last recovered transaction (recomputed here independently),
/// that the indexes answer accordingly, and that Verify passes.
/// BLITE_COLLECTIONS_CRASH_CYCLES overrides the number of kill cycles (default 16).
/// </summary>
public sealed class IndexedCrashTests
{
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];
    private readonly ITestOutputHelper _output;

    public IndexedCrashTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void Indexed_commits_survive_process_kill()
    {
        var recounts = 0;
        var (cycles, highestAcknowledged) = CrashWorkerProcess.RunKillCycles("indexed", "BLITE_COLLECTIONS_CRASH_CYCLES", 16, 20261122, 25,
            (path, cycle, highest) => CheckRecovered(path, cycle, highest, onRecount: () => recounts++));

        // Counts live in memory between checkpoints: a kill between two must have left some
        // pending, and the reopen rebuilt them (CheckRecovered asserts each is exact).
        Assert.True(recounts > 0, $"no kill in {cycles} cycles left a document count pending");
        _output.WriteLine($"{cycles} kill cycles, {highestAcknowledged} transactions recovered in the end, {recounts} counts rebuilt.");
    }

    /// <summary>The same kills on an encrypted database (docs/encryption.md), a few cycles.</summary>
    [Fact]
    public void Indexed_commits_survive_process_kill_with_encryption()
    {
        var (cycles, highestAcknowledged) = CrashWorkerProcess.RunKillCycles("indexed", "BLITE_COLLECTIONS_CRASH_CYCLES", 4, 20261125, 25,
            (path, cycle, highest) => CheckRecovered(path, cycle, highest, encrypted: true), encrypted: true);

        Assert.True(highestAcknowledged > 0, "no transaction was ever recovered from the encrypted database");
        _output.WriteLine($"{cycles} kill cycles on an encrypted database, {highestAcknowledged} transactions recovered in the end.");
    }

    private static long CheckRecovered(string path, int cycle, long highestAcknowledged, bool encrypted = false, Action? onRecount = null)
    {
        using var database = CrashWorkerProcess.OpenRecovered(path, cycle, highestAcknowledged, out var last, encrypted);
        if (database.RecountedCollections > 0)
        {
            onRecount?.Invoke();
        }

        if (last == 0)
        {
            return 0;
        }

        var orders = database.GetCollection("orders");
        var expected = ExpectedOrders(last);
        using (var read = database.BeginRead())
        {
            Assert.Equal(expected.Count, orders.Count(read));
            Assert.Equal(1, database.GetCollection("meta").Count(read));
        }
        Assert.Equal(expected.Select(d => d["_id"].AsInt64), orders.FindAll().Select(d => d["_id"].AsInt64));
        Assert.Equal(expected, orders.FindAll().ToList());
        foreach (var status in Statuses)
        {
            Assert.Equal(
                expected.Where(d => d["status"].AsString == status).Select(d => d["_id"].AsInt64),
                orders.FindByIndex("byStatus", status).Select(d => d["_id"].AsInt64));
        }

        if (expected.Count > 0)
        {
            var sample = expected[^1];
            Assert.Equal([sample], orders.FindByIndex("byEmail", sample["customer"].AsDocument["email"]).ToList());
        }

        return last;
    }

    /// <summary>
    /// After transaction <paramref name="last"/>: documents 1..last, each rewritten to revision 1
    /// by the transaction after it (the newest is still revision 0), without those deleted
    /// three transactions after their insertion at every multiple of five.
    /// </summary>
    private static List<BsonDocument> ExpectedOrders(long last)
    {
        var documents = new List<BsonDocument>();
        for (long id = 1; id <= last; id++)
        {
            var deletedBy = id + 3;
            if (deletedBy % 5 == 0 && deletedBy <= last)
            {
                continue;
            }

            var revision = id < last ? 1 : 0;
            documents.Add(new BsonDocument
            {
                ["_id"] = id,
                ["status"] = Statuses[(id + revision) % 4],
                ["customer"] = new BsonDocument { ["email"] = $"user{id}-r{revision}@example.org" },
                ["tags"] = new BsonArray { "t" + ((id + revision) % 5), "u" + ((id * 3 + revision) % 7) },
                ["revision"] = revision,
                ["pad"] = new string('p', (int)(id * 37 % 700)),
            });
        }

        return documents;
    }
}
