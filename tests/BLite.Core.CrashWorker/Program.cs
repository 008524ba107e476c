using BLite.Core.Storage;

namespace BLite.Core.CrashWorker;

/// <summary>
/// Child process for the crash tests.
/// <c>commit &lt;path&gt; &lt;Full|Normal&gt; &lt;seed&gt; [encrypted]</c>: opens the database (encrypted
/// with <see cref="CrashEncryption.Key"/> when asked), then commits ledger transactions forever, printing
/// "ack n" after each Commit returns (the parent kills it).
/// <c>try-open &lt;path&gt;</c>: prints "opened" or "locked" (exclusive-access test).
/// </summary>
internal static class Program
{

    private static int Main(string[] args)
    {
        if (args.Length >= 4 && args[0] == "commit")
        {
            var encrypted = args.Length >= 5 && args[4] == "encrypted";
            return CommitForever(args[1], Enum.Parse<Durability>(args[2]), int.Parse(args[3], System.Globalization.CultureInfo.InvariantCulture), encrypted);
        }

        if (args.Length >= 3 && args[0] == "indexed") return IndexedWorkload.Run(args[1], Enum.Parse<Durability>(args[2]), args.Length >= 4 && args[3] == "encrypted");
        if (args.Length >= 3 && args[0] == "vectors") return VectorWorkload.Run(args[1], Enum.Parse<Durability>(args[2]), args.Length >= 4 && args[3] == "encrypted");

        if (args.Length >= 3 && args[0] == "backup") return BackupWorkload.Run(args[1], args[2], args.Length >= 4 ? int.Parse(args[3], System.Globalization.CultureInfo.InvariantCulture) : null);
        if (args.Length >= 3 && args[0] == "feed-writer") return ChangeFeedWorkload.RunWriter(args[1], Enum.Parse<Durability>(args[2]));
        if (args.Length >= 3 && args[0] == "feed-watcher") return ChangeFeedWorkload.RunWatcher(args[1], args[2]);

        if (args.Length >= 2 && args[0] == "try-open")
        {
            return TryOpen(args[1]);
        }

        Console.Error.WriteLine("usage: commit <path> <Full|Normal> <seed> | try-open <path>");
        return 2;
    }

    private static int CommitForever(string path, Durability durability, int seed, bool encrypted)
    {
        var random = new Random(seed);
        var output = Console.Out;
        using var engine = StorageEngine.Open(path, new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            WalCheckpointThresholdBytes = 64 * 1024,
            Encryption = encrypted ? BLiteEncryption.WithKey(CrashEncryption.Key) : null,
        });
        using (var init = engine.BeginWrite())
        {
            CommitLedger.Initialize(init, dataPages: 6);
            init.Commit();
        }

        output.WriteLine("ready");
        output.Flush();
        while (true)
        {
            using var tx = engine.BeginWrite();
            var n = CommitLedger.WriteNext(tx, random);
            tx.Commit();
            output.WriteLine($"ack {n}");
            output.Flush();
        }
    }

    private static int TryOpen(string path)
    {
        try
        {
            using var engine = StorageEngine.Open(path, new StorageOptions());
            Console.Out.WriteLine("opened");
            return 0;
        }
        catch (BLiteDatabaseLockedException exception)
        {
            Console.Out.WriteLine("locked: " + exception.Message);
            return 3;
        }
    }
}
