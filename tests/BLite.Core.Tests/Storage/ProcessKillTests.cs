using System.Globalization;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using Xunit.Abstractions;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A child process commits ledger transactions and prints each acknowledged one; the test
/// kills it with SIGKILL at a random moment, reopens the database and checks that every
/// acknowledged commit is there, no transaction is half applied, and Verify passes.
/// BLITE_CRASH_CYCLES overrides the number of kill cycles (default 200).
/// </summary>
public class ProcessKillTests
{
    private readonly ITestOutputHelper _output;

    public ProcessKillTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void Commit_survives_process_kill()
    {
        var cycles = int.TryParse(Environment.GetEnvironmentVariable("BLITE_CRASH_CYCLES"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured) ? configured : 200;
        const int Lanes = 2;

        // Two independent databases, each with its own child, keep both cores busy while the other lane's child starts.
        var results = new (int Cycles, long Acknowledged, long Last)[Lanes];
        Parallel.For(0, Lanes, lane => results[lane] = RunLane(20261121 + (lane * 7919), (cycles + Lanes - 1 - lane) / Lanes));

        foreach (var (laneCycles, acknowledged, last) in results)
        {
            _output.WriteLine($"{laneCycles} kill cycles, {acknowledged} acknowledged commits, last transaction {last}.");
        }

        Assert.Equal(cycles, results.Sum(result => result.Cycles));
    }

    /// <summary>The same kills on an encrypted database (docs/encryption.md), a fifth as many cycles.</summary>
    [Fact]
    public void Commit_survives_process_kill_with_encryption()
    {
        var cycles = (int.TryParse(Environment.GetEnvironmentVariable("BLITE_CRASH_CYCLES"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured) ? configured : 200) / 5;
        var (laneCycles, acknowledged, last) = RunLane(20261124, cycles, encrypted: true);
        _output.WriteLine($"{laneCycles} kill cycles on an encrypted database, {acknowledged} acknowledged commits, last transaction {last}.");
        Assert.Equal(cycles, laneCycles);
        Assert.True(acknowledged > 0);
    }

    private static (int Cycles, long Acknowledged, long Last) RunLane(int seed, int cycles, bool encrypted = false)
    {
        var random = new Random(seed);
        using var dir = new TempDirectory();
        var path = Path.Combine(dir.Path, "crash.blite");
        long highestAcknowledged = -1;
        long totalAcknowledged = 0;

        for (var cycle = 0; cycle < cycles; cycle++)
        {
            var durability = cycle % 2 == 0 ? Durability.Full : Durability.Normal;
            var killAfter = random.Next(0, 30);
            using var child = CrashWorkerProcess.Start("commit", path, durability.ToString(), (seed + cycle).ToString(CultureInfo.InvariantCulture), encrypted ? "encrypted" : "plain");
            var acknowledgedThisRun = 0;
            string? line;
            while ((line = child.StandardOutput.ReadLine()) is not null)
            {
                if (line.StartsWith("ack ", StringComparison.Ordinal))
                {
                    highestAcknowledged = Math.Max(highestAcknowledged, long.Parse(line.AsSpan(4), CultureInfo.InvariantCulture));
                    acknowledgedThisRun++;
                }
                else if (line == "ready")
                {
                    highestAcknowledged = Math.Max(highestAcknowledged, 0);
                }

                if (acknowledgedThisRun >= killAfter)
                {
                    child.Kill(entireProcessTree: true);
                    break;
                }
            }

            // Lines the child printed before it died were acknowledged too.
            while ((line = child.StandardOutput.ReadLine()) is not null)
            {
                if (line.StartsWith("ack ", StringComparison.Ordinal) && long.TryParse(line.AsSpan(4), CultureInfo.InvariantCulture, out var n))
                {
                    highestAcknowledged = Math.Max(highestAcknowledged, n);
                    acknowledgedThisRun++;
                }
            }

            child.WaitForExit();
            Assert.True(child.ExitCode != 0, $"seed {seed} cycle {cycle}: the worker exited on its own: {child.StandardError.ReadToEnd()}");
            totalAcknowledged += acknowledgedThisRun;

            using var engine = StorageEngine.Open(path, new StorageOptions { PageSize = 4096, Encryption = encrypted ? BLiteEncryption.WithKey(CrashEncryption.Key) : null });
            using (var read = engine.BeginRead())
            {
                var recovered = CommitLedger.Load(read).Data.Count == 0 ? -1 : CommitLedger.Check(read);
                Assert.True(recovered >= highestAcknowledged, $"seed {seed} cycle {cycle} ({durability}): acknowledged commit {highestAcknowledged} lost; recovered {recovered}.");
                highestAcknowledged = recovered;
            }

            var report = engine.Verify(requireEveryPageOwned: true, new LedgerOwnership());
            Assert.True(report.IsValid, $"seed {seed} cycle {cycle}: {report}");
        }

        return (cycles, totalAcknowledged, highestAcknowledged);
    }
}
