using System.Diagnostics;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.ChangeFeed;

/// <summary>
/// <c>changefeed [--inserts N] [--rounds R] [--warmup W] [--latency N]</c>: what the change feed costs.
/// (1) Single insert (one order per transaction) into a collection without and with a change feed,
/// in Normal and Full durability: two databases, W warm-up inserts each (default 200), then R
/// alternating rounds of N inserts each, so both sides see the same machine load; reports the
/// median per-insert time and the ratio. A long warm-up lets tiered compilation settle first.
/// (2) Commit-to-watcher latency with 1 and 16 watchers (Full durability): the writer commits one
/// order, each watcher notes when the event reaches it, and the next commit starts once every
/// watcher has it; latency is from the start of Commit to receipt (so it includes the flush),
/// reported as p50 and p99 beside the commit time alone.
/// (3) What a single-insert commit writes to the WAL (frames, bytes, checkpoints) and allocates,
/// with and without the feed, and (4) the time of a checkpoint whose retention check meets a
/// journal of <c>--journal E</c> events (default 20,000) all within retention.
/// </summary>
internal static class ChangeFeedBenchmark
{
    public static int Run(IReadOnlyList<string> args)
    {
        var inserts = ModeArguments.Int(args, "--inserts", 300);
        var rounds = ModeArguments.Int(args, "--rounds", 7);
        var warmup = ModeArguments.Int(args, "--warmup", 200);
        var latencyCommits = ModeArguments.Int(args, "--latency", 300);
        var directory = Path.Combine(Path.GetTempPath(), "blite-feed-bench-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            Console.WriteLine($"change feed: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, load average {File.ReadAllText("/proc/loadavg").Trim()}");
            foreach (var durability in new[] { Durability.Normal, Durability.Full })
            {
                var (plain, fed) = InsertCost(directory, durability, durability == Durability.Full ? Math.Max(50, inserts / 3) : inserts, rounds, warmup);
                Console.WriteLine($"single insert, {durability,-6}: without feed {plain.Wall,8:0.0} us, with feed {fed.Wall,8:0.0} us, ratio {fed.Wall / plain.Wall:0.000}; CPU {plain.Cpu:0.0} / {fed.Cpu:0.0} us, ratio {fed.Cpu / plain.Cpu:0.000}; inserting thread's CPU {plain.ThreadCpu:0.0} / {fed.ThreadCpu:0.0} us, ratio {fed.ThreadCpu / plain.ThreadCpu:0.000}");
            }

            var walInserts = Math.Max(1000, inserts * rounds);
            var (plainWal, fedWal) = (WalPerCommit(directory, "plain", walInserts, o => new BenchOrdersContext(o), db => db.Orders), WalPerCommit(directory, "fed", walInserts, o => new FeedOrdersContext(o), db => db.Orders));
            Console.WriteLine($"WAL per single insert over {walInserts}: without feed {plainWal}, with feed {fedWal}");
            var journaled = ModeArguments.Int(args, "--journal", 20_000);
            Console.WriteLine($"checkpoint with {journaled} events journaled, all within retention: {RetentionCheckpoint(directory, journaled):0.0} us");

            foreach (var watchers in new[] { 1, 16 })
            {
                var (commitP50, p50, p99) = Latency(directory, watchers, latencyCommits);
                Console.WriteLine($"commit-to-watcher, {watchers,2} watcher(s): p50 {p50,8:0.0} us, p99 {p99,8:0.0} us (commit alone p50 {commitP50:0.0} us)");
            }
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }

        return 0;
    }

    private static (InsertTime Plain, InsertTime Fed) InsertCost(string directory, Durability durability, int inserts, int rounds, int warmup)
    {
        var suffix = durability.ToString().ToLowerInvariant();
        using var plain = new BenchOrdersContext(new DocumentDbContextOptions { Path = Path.Combine(directory, $"plain-{suffix}.blite"), Durability = durability });
        using var fed = new FeedOrdersContext(new DocumentDbContextOptions { Path = Path.Combine(directory, $"fed-{suffix}.blite"), Durability = durability });
        var generator = new OrderGenerator(7);

        // Warm-up: JIT, and non-empty databases as in the comparison's single-insert scenario.
        for (var i = 0; i < warmup; i++)
        {
            plain.Orders.Insert(Fresh(generator));
            fed.Orders.Insert(Fresh(generator));
        }

        var plainRounds = new List<InsertTime>();
        var fedRounds = new List<InsertTime>();
        for (var round = 0; round < rounds; round++)
        {
            var orders = Enumerable.Range(0, inserts).Select(_ => Fresh(generator)).ToList();
            var copies = Enumerable.Range(0, inserts).Select(_ => Fresh(generator)).ToList();
            var first = round % 2 == 0;
            var a = TimeInserts(first ? orders : copies, first ? plain.Orders : null, first ? null : fed.Orders);
            var b = TimeInserts(first ? copies : orders, first ? null : plain.Orders, first ? fed.Orders : null);
            plainRounds.Add(first ? a : b);
            fedRounds.Add(first ? b : a);
        }

        return (Median(plainRounds), Median(fedRounds));
    }

    /// <summary>
    /// Wall time and the process's CPU time per insert (GC and flushes included): on a shared
    /// machine the CPU time does not count the time spent waiting for a core. The inserting
    /// thread's CPU time (0 where it cannot be read) leaves out the background checkpoint and the
    /// runtime's other threads, so it is the steadiest of the three under load: it is the commit
    /// path's own work, with the collections the GC runs on that thread.
    /// </summary>
    private readonly record struct InsertTime(double Wall, double Cpu, double ThreadCpu);

    private static InsertTime Median(List<InsertTime> rounds) =>
        new(Median(rounds.Select(r => r.Wall).ToList()), Median(rounds.Select(r => r.Cpu).ToList()), Median(rounds.Select(r => r.ThreadCpu).ToList()));

    /// <summary>Frames and bytes the WAL takes per single-insert commit, and the checkpoints they cause.</summary>
    private static WalFigures WalPerCommit<TContext>(string directory, string name, int inserts, Func<DocumentDbContextOptions, TContext> open, Func<TContext, DocumentCollection<ObjectId, CustomerOrder>> collection)
        where TContext : DocumentDbContext
    {
        using var db = open(new DocumentDbContextOptions { Path = Path.Combine(directory, $"wal-{name}.blite"), Durability = Durability.Normal });
        var orders = collection(db);
        var generator = new OrderGenerator(13);
        for (var i = 0; i < 200; i++)
        {
            orders.Insert(Fresh(generator));
        }

        var start = db.Database.GetStatistics();
        var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        long bytes = 0;
        var previous = start;
        for (var i = 0; i < inserts; i++)
        {
            orders.Insert(Fresh(generator));
            var now = db.Database.GetStatistics();

            // A checkpoint restarts the log: what this commit appended is then the new log past its header.
            bytes += now.Checkpoints == previous.Checkpoints ? now.WalBytes - previous.WalBytes : now.WalBytes - WalHeaderBytes;
            previous = now;
        }

        var allocated = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / (double)inserts;
        var frameBytes = WalFrameHeaderBytes + db.Database.PageSize;
        return new WalFigures(bytes / (double)inserts / frameBytes, bytes / (double)inserts, previous.Checkpoints - start.Checkpoints, allocated);
    }

    // The WAL's header, and each frame's header before its page image (WalFormat in BLite.Core).
    private const int WalHeaderBytes = 40;
    private const int WalFrameHeaderBytes = 32;

    /// <summary>
    /// What enforcing retention costs a checkpoint when the journal is large but within its limits:
    /// the median of checkpoints with nothing else to do (an empty log), so the time is the trim's.
    /// </summary>
    private static double RetentionCheckpoint(string directory, int events)
    {
        using var db = new FeedOrdersContext(new DocumentDbContextOptions { Path = Path.Combine(directory, "retention.blite"), Durability = Durability.Normal });
        var generator = new OrderGenerator(17);
        for (var done = 0; done < events; done += 1000)
        {
            db.Orders.InsertMany(Enumerable.Range(0, Math.Min(1000, events - done)).Select(_ => Fresh(generator)).ToList());
        }

        db.Database.Checkpoint();
        var times = new List<double>();
        for (var i = 0; i < 9; i++)
        {
            var started = Stopwatch.GetTimestamp();
            db.Database.Checkpoint();
            times.Add(Stopwatch.GetElapsedTime(started).TotalMicroseconds);
        }

        return Median(times);
    }

    private sealed record WalFigures(double Frames, double Bytes, long Checkpoints, double Allocated)
    {
        public override string ToString() => $"{Frames:0.00} frames, {Bytes / 1024:0.0} KiB per commit, {Checkpoints} checkpoints, {Allocated / 1024:0.0} KiB allocated per insert";
    }

    private static InsertTime TimeInserts(List<CustomerOrder> orders, DocumentCollection<ObjectId, CustomerOrder>? plain, DocumentCollection<ObjectId, CustomerOrder>? fed)
    {
        var process = Process.GetCurrentProcess();
        var cpu = process.TotalProcessorTime;
        var threadCpu = Manual.ThreadCpuClock.NowNs();
        var started = Stopwatch.GetTimestamp();
        foreach (var order in orders)
        {
            (plain ?? fed)!.Insert(order);
        }

        var wall = Stopwatch.GetElapsedTime(started).TotalMicroseconds / orders.Count;
        var threadMicroseconds = (Manual.ThreadCpuClock.NowNs() - threadCpu) / 1000.0 / orders.Count;
        process.Refresh();
        return new InsertTime(wall, (process.TotalProcessorTime - cpu).TotalMicroseconds / orders.Count, threadMicroseconds);
    }

    private static (double CommitP50, double P50, double P99) Latency(string directory, int watcherCount, int commits)
    {
        using var db = new FeedOrdersContext(new DocumentDbContextOptions { Path = Path.Combine(directory, $"latency-{watcherCount}.blite"), Durability = Durability.Full });
        var generator = new OrderGenerator(11);
        var started = new long[commits];
        var received = new long[watcherCount, commits];
        var progress = new int[watcherCount];
        using var stop = new CancellationTokenSource();
        var watchers = Enumerable.Range(0, watcherCount).Select(w =>
        {
            var stream = db.Orders.Watch(cancellationToken: stop.Token);
            return Task.Run(async () =>
            {
                var n = 0;
                await foreach (var _ in stream.ConfigureAwait(false))
                {
                    received[w, n] = Stopwatch.GetTimestamp();
                    Volatile.Write(ref progress[w], ++n);
                    if (n == commits)
                    {
                        return;
                    }
                }
            });
        }).ToList();

        var commitTimes = new List<double>(commits);
        for (var i = 0; i < commits; i++)
        {
            var order = Fresh(generator);
            started[i] = Stopwatch.GetTimestamp();
            db.Orders.Insert(order);
            commitTimes.Add(Stopwatch.GetElapsedTime(started[i]).TotalMicroseconds);
            for (var w = 0; w < watcherCount; w++)
            {
                var spin = new SpinWait();
                while (Volatile.Read(ref progress[w]) <= i)
                {
                    spin.SpinOnce();
                }
            }
        }

        Task.WaitAll(watchers);
        var latencies = new List<double>(commits * watcherCount);
        for (var i = 0; i < commits; i++)
        {
            for (var w = 0; w < watcherCount; w++)
            {
                latencies.Add(Stopwatch.GetElapsedTime(started[i], received[w, i]).TotalMicroseconds);
            }
        }

        latencies.Sort();
        commitTimes.Sort();
        return (commitTimes[commitTimes.Count / 2], latencies[latencies.Count / 2], latencies[(int)(latencies.Count * 0.99)]);
    }

    private static CustomerOrder Fresh(OrderGenerator generator)
    {
        var order = generator.Next();
        order.Id = default;
        return order;
    }

    private static double Median(List<double> values)
    {
        values.Sort();
        return values[values.Count / 2];
    }
}
