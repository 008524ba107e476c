using System.Diagnostics;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>Starts tests/BLite.Core.CrashWorker (copied next to the test assembly) as a real child process.</summary>
internal static class CrashWorkerProcess
{
    public static string DllPath => Path.Combine(AppContext.BaseDirectory, "BLite.Core.CrashWorker.dll");

    public static Process Start(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(DllPath);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Quick JIT without tiering up keeps each child's start-up short; the children are killed within a second anyway.
        start.Environment["DOTNET_TieredPGO"] = "0";
        start.Environment["DOTNET_TC_QuickJitForLoops"] = "1";
        return Process.Start(start) ?? throw new InvalidOperationException("Could not start the crash worker.");
    }

    /// <summary>
    /// The kill loop of the ledger workloads: <paramref name="defaultCycles"/> cycles (or the count
    /// in environment variable <paramref name="cyclesVariable"/>), alternating Full and Normal
    /// durability, each killing worker <paramref name="mode"/> after a random number of acks below
    /// <paramref name="maxKillAfter"/> and then handing the file to <paramref name="checkRecovered"/>
    /// (path, cycle, highest acknowledged so far), which returns the highest transaction recovered.
    /// With <paramref name="encrypted"/> the worker writes under <see cref="CrashEncryption.Key"/>.
    /// </summary>
    public static (int Cycles, long HighestRecovered) RunKillCycles(string mode, string cyclesVariable, int defaultCycles, int seed,
        int maxKillAfter, Func<string, int, long, long> checkRecovered, bool encrypted = false)
    {
        var cycles = int.TryParse(Environment.GetEnvironmentVariable(cyclesVariable), System.Globalization.NumberStyles.Integer,
            System.Globalization.CultureInfo.InvariantCulture, out var configured) ? configured : defaultCycles;
        var random = new Random(seed);
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, mode + "-crash.blite");
        long highestAcknowledged = 0;
        for (var cycle = 0; cycle < cycles; cycle++)
        {
            var durability = cycle % 2 == 0 ? Durability.Full : Durability.Normal;
            highestAcknowledged = RunUntilKilled(random.Next(0, maxKillAfter), highestAcknowledged, mode, path, durability.ToString(), encrypted ? "encrypted" : "plain");
            highestAcknowledged = checkRecovered(path, cycle, highestAcknowledged);
        }

        return (cycles, highestAcknowledged);
    }

    /// <summary>
    /// Opens a ledger workload's file after a kill, asserts that it verifies and that no acknowledged
    /// transaction was lost, and gives the last transaction recovered (0 when none ever committed).
    /// </summary>
    public static DocumentDatabase OpenRecovered(string path, int cycle, long highestAcknowledged, out long last, bool encrypted = false)
    {
        var database = DocumentDatabase.Open(path, new StorageOptions { PageSize = 4096, Encryption = encrypted ? BLiteEncryption.WithKey(CrashEncryption.Key) : null });
        var report = database.Verify();
        Assert.True(report.IsValid, $"cycle {cycle}: {report}");
        Assert.Equal(encrypted, database.Storage.IsEncrypted);
        if (!database.GetCollectionNames().Contains("meta"))
        {
            Assert.Equal(0, highestAcknowledged);
            last = 0;
            return database;
        }

        last = database.GetCollection("meta").FindById("ledger")?["last"].AsInt64 ?? 0;
        Assert.True(last >= highestAcknowledged, $"cycle {cycle}: acknowledged transaction {highestAcknowledged} lost; recovered {last}.");
        return database;
    }

    /// <summary>
    /// Runs a workload that prints "ack n" after each acknowledged commit, kills it with SIGKILL once
    /// <paramref name="killAfter"/> acks were read, and returns the highest acknowledged n (at least
    /// <paramref name="highestSoFar"/>). Fails the test if the worker exited on its own.
    /// </summary>
    public static long RunUntilKilled(int killAfter, long highestSoFar, params string[] arguments)
    {
        var highest = highestSoFar;
        using var child = Start(arguments);
        var acknowledged = 0;
        string? line;
        while ((line = child.StandardOutput.ReadLine()) is not null)
        {
            if (line.StartsWith("ack ", StringComparison.Ordinal))
            {
                highest = Math.Max(highest, long.Parse(line.AsSpan(4), System.Globalization.CultureInfo.InvariantCulture));
                acknowledged++;
            }

            if (acknowledged >= killAfter)
            {
                child.Kill(entireProcessTree: true);
                break;
            }
        }

        // Lines the child printed before it died were acknowledged too.
        while ((line = child.StandardOutput.ReadLine()) is not null)
        {
            if (line.StartsWith("ack ", StringComparison.Ordinal) && long.TryParse(line.AsSpan(4), System.Globalization.CultureInfo.InvariantCulture, out var n))
            {
                highest = Math.Max(highest, n);
            }
        }

        child.WaitForExit();
        Assert.True(child.ExitCode != 0, $"the worker ({string.Join(' ', arguments)}) exited on its own: {child.StandardError.ReadToEnd()}");
        return highest;
    }
}
