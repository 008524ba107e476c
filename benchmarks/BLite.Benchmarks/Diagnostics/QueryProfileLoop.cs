using BLite.Benchmarks.Query;
using BLite.Benchmarks.Query.References;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile project-by-id|scan-project|sum-by-status|distinct-status|include-customer|two-hop|two-hop-compiled|two-hop-first blite|sqlite COUNT [DOCUMENTS]</c>: one query scenario of
/// the manual mode repeated COUNT times over 1,000 orders (or DOCUMENTS) in memory, for a sampling
/// profiler (<c>perf record</c> with <c>DOTNET_PerfMapEnabled=1</c>) or <c>valgrind --tool=callgrind</c>.
/// Prints the checksum and the mean time per operation. <c>profile compare project-by-id|project-by-id-row|find-by-id-floor|scan-project|sum-by-status|distinct-status|include-customer|two-hop|two-hop-compiled ROUNDS [DOCUMENTS]</c>
/// runs BLite and SQLite+JSON alternately in one process, batch by batch, and prints each one's
/// best batch: on a shared, loaded machine the fastest batch is the one least disturbed.
/// <c>two-hop-first</c> runs only BLite's first hop of <c>two-hop</c> (the ids of a city's accounts), for
/// counting its instructions apart (SQLite has no separate first hop: it runs its whole join).
/// Options: <c>--shuffled</c> looks the ids up in the order of <c>ProjectionBenchmarks</c>
/// (<c>new Random(7).Shuffle</c>) rather than insertion order, so consecutive lookups land on
/// unrelated leaves as in the suite; <c>--warm-up SECONDS</c> (compare only, default 3) runs each
/// engine that long before the first timed batch, so the runtime has promoted the hot methods to
/// optimised code (the batches shrink as the data grows and would otherwise end before that).
/// </summary>
internal static class QueryProfileLoop
{
    public static int Run(string[] args)
    {
        var options = args.ToList();
        var shuffled = options.Remove("--shuffled");
        var warmUp = TimeSpan.FromSeconds(3);
        var warmUpAt = options.IndexOf("--warm-up");
        if (warmUpAt >= 0)
        {
            if (warmUpAt + 1 >= options.Count || !double.TryParse(options[warmUpAt + 1], System.Globalization.CultureInfo.InvariantCulture, out var seconds) || seconds < 0)
            {
                Console.Error.WriteLine("profile: --warm-up needs a number of seconds (0 or more)");
                return 2;
            }

            warmUp = TimeSpan.FromSeconds(seconds);
            options.RemoveRange(warmUpAt, 2);
        }

        args = [.. options];
        var documents = 1000;
        if (args.Length == 4 && int.TryParse(args[3], out documents) && documents > 0)
        {
            args = args[..3];
        }

        if (args.Length == 3 && args[0] == "compare" && int.TryParse(args[2], out var rounds))
        {
            return Compare(args[1], rounds, documents, shuffled, warmUp);
        }

        if (args.Length != 3 || args[0] is not ("project-by-id" or "scan-project" or "sum-by-status" or "distinct-status" or "include-customer" or "two-hop" or "two-hop-compiled" or "two-hop-first") || args[1] is not ("blite" or "sqlite")
            || !int.TryParse(args[2], out var count) || count < 0)
        {
            Console.Error.WriteLine("usage: profile project-by-id|scan-project|sum-by-status|distinct-status|include-customer|two-hop|two-hop-compiled blite|sqlite COUNT [DOCUMENTS] [--shuffled], or profile compare project-by-id|find-by-id-floor|scan-project|sum-by-status|distinct-status|include-customer|two-hop|two-hop-compiled ROUNDS [DOCUMENTS] [--shuffled] [--warm-up SECONDS]");
            return 2;
        }

        var (peer, operation) = Create(args[0], args[1] == "blite", documents, shuffled);
        using (peer)
        {
            var checksum = 0m;
            for (var i = 0; i < Math.Min(count, 2000); i++)
            {
                checksum += operation(i);
            }

            var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
            var collectionsBefore = GC.CollectionCount(0);
            var started = System.Diagnostics.Stopwatch.GetTimestamp();
            for (var i = 0; i < count; i++)
            {
                checksum += operation(i);
            }

            var elapsed = System.Diagnostics.Stopwatch.GetElapsedTime(started);
            var allocated = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / Math.Max(count, 1);
            Console.WriteLine($"{args[0]} {args[1]} x{count}: {elapsed.TotalMilliseconds * 1000 / Math.Max(count, 1):F3} us/op ({allocated} B/op, {GC.CollectionCount(0) - collectionsBefore} collections), checksum {checksum}");
        }

        return 0;
    }

    private static (IDisposable Peer, Func<int, decimal> Operation) Create(string scenario, bool blite, int documents, bool shuffled)
    {
        if (scenario is "two-hop" or "two-hop-compiled" or "two-hop-first" or "include-customer")
        {
            var linked = LinkedDataset.Create(documents);
            IReferencePeer references = blite ? new BLiteReferencePeer(linked) : new SqliteReferencePeer(linked);
            return scenario switch
            {
                // SQLite's side is the same prepared statement either way.
                "two-hop-compiled" when references is BLiteReferencePeer compiled => (references, i => compiled.OrdersOfCityCompiled(LinkedDataset.City(i % LinkedDataset.Cities))),
                "two-hop-first" when references is BLiteReferencePeer first => (references, i => first.FirstHop(LinkedDataset.City(i % LinkedDataset.Cities))),
                "two-hop" or "two-hop-compiled" or "two-hop-first" => (references, i => references.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities))),
                _ => (references, _ => references.IncludeAccounts()),
            };
        }

        var orders = new OrderGenerator().Generate(documents);
        var keys = LookupKeys(orders, shuffled);
        IProjectionPeer projections = blite ? new BLiteProjectionPeer(orders, prepared: true) : new SqliteProjectionPeer(orders);
        return scenario switch
        {
            "project-by-id" => (projections, i => projections.ProjectById(keys[i % keys.Length])),
            "sum-by-status" => (projections, _ => projections.SumByStatus()),
            "distinct-status" => (projections, _ => projections.DistinctStatuses()),
            _ => (projections, _ => projections.ScanProject()),
        };
    }

    /// <summary>The ids to look up, in insertion order or in the suite's shuffled order.</summary>
    private static ObjectId[] LookupKeys(IReadOnlyList<CustomerOrder> orders, bool shuffled)
    {
        var keys = orders.Select(o => o.Id).ToArray();
        if (shuffled)
        {
            new Random(7).Shuffle(keys);
        }

        return keys;
    }

    private static (IDisposable Peer, Func<int, decimal> Operation) RowPathLookup(int documents, bool shuffled)
    {
        var orders = new OrderGenerator().Generate(documents);
        var keys = LookupKeys(orders, shuffled);
        var peer = new BLiteProjectionPeer(orders, prepared: true);
        return (peer, i => peer.ProjectByIdThroughRows(keys[i % keys.Length]));
    }

    /// <summary>
    /// "find-by-id-floor": a whole-document FindById against MemoryPack deserializing the same
    /// orders from bytes it serialized (the floor for materialising an order; issue #15).
    /// </summary>
    private static (IDisposable Blite, Func<int, decimal> FindById, Func<int, decimal> Deserialize) FloorLookup(int documents, bool shuffled)
    {
        var orders = new OrderGenerator().Generate(documents);
        var keys = LookupKeys(orders, shuffled);
        var codec = new Engines.MemoryPackCodec.MemoryPackOrderCodec();
        var serialized = orders.Select(o => codec.Serialize(o).ToArray()).ToArray();
        var peer = new BLiteProjectionPeer(orders, prepared: true);
        return (peer, i => peer.FindWholeById(keys[i % keys.Length]), i => codec.Deserialize(serialized[i % serialized.Length]).Total);
    }

    private static int Compare(string scenario, int rounds, int documents, bool shuffled, TimeSpan warmUp)
    {
        // "project-by-id-row": the typed lookup against the same lookup into an anonymous type,
        // which keeps the row path (boxed row, ConstructorInvoker), on the same data in one process.
        var rowPath = scenario == "project-by-id-row";
        var floor = scenario == "find-by-id-floor";
        scenario = rowPath || floor ? "project-by-id" : scenario;
        IDisposable blitePeer;
        IDisposable? sqlitePeer = null;
        Func<int, decimal> blite;
        Func<int, decimal> sqlite;
        if (floor)
        {
            (blitePeer, blite, sqlite) = FloorLookup(documents, shuffled);
        }
        else
        {
            (blitePeer, blite) = Create(scenario, blite: true, documents, shuffled);
            (sqlitePeer, sqlite) = rowPath ? RowPathLookup(documents, shuffled) : Create(scenario, blite: false, documents, shuffled);
        }

        using (blitePeer)
        using (sqlitePeer)
        {
            // Batches shrink as the data grows so a round stays around a second per engine.
            var batch = Math.Max(2, (scenario == "project-by-id" ? 20_000 : 200) * 1000 / Math.Max(1000, documents));
            WarmUp(blite, warmUp);
            WarmUp(sqlite, warmUp);
            var best = new[] { double.MaxValue, double.MaxValue };
            var cpu = new[] { new List<double>(), new List<double>() };
            var allocated = new long[2];
            for (var round = 0; round < rounds; round++)
            {
                for (var engine = 0; engine < 2; engine++)
                {
                    var operation = engine == 0 ? blite : sqlite;
                    var checksum = 0m;
                    var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
                    var cpuStarted = ThreadTime.NowNanoseconds();
                    var started = System.Diagnostics.Stopwatch.GetTimestamp();
                    for (var i = 0; i < batch; i++)
                    {
                        checksum += operation(i);
                    }

                    var perOperation = System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds * 1000 / batch;
                    cpu[engine].Add((ThreadTime.NowNanoseconds() - cpuStarted) / 1000.0 / batch);
                    allocated[engine] = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / batch;
                    best[engine] = Math.Min(best[engine], perOperation);
                    GC.KeepAlive(checksum);
                }
            }

            var order = shuffled ? ", ids shuffled" : "";
            if (floor)
            {
                Console.WriteLine($"find-by-id-floor: BLite FindById {best[0]:F3} us/op ({allocated[0]} B/op), MemoryPack deserialize {best[1]:F3} us/op ({allocated[1]} B/op), BLite / MemoryPack {best[0] / best[1]:F2}x (best of {rounds} batches of {batch}, {documents} documents{order})");
                return 0;
            }

            Console.WriteLine($"{scenario}: BLite {best[0]:F3} us/op ({allocated[0]} B/op), {(rowPath ? "BLite row path" : "SQLite+JSON")} {best[1]:F3} us/op ({allocated[1]} B/op), ratio {best[1] / best[0]:F1}x (best of {rounds} batches of {batch}, {documents} documents{order})");
            var medians = cpu.Select(FloorPartsLoop.Median).ToArray();
            Console.WriteLine($"  median {(ThreadTime.IsThreadCpuTime ? "thread CPU" : "wall-clock")} per batch: BLite {medians[0]:F3} us/op, {(rowPath ? "BLite row path" : "SQLite+JSON")} {medians[1]:F3} us/op, ratio {medians[1] / medians[0]:F1}x (after {warmUp.TotalSeconds:F0} s of warm-up per engine)");
        }

        return 0;
    }

    /// <summary>
    /// Runs <paramref name="operation"/> for <paramref name="time"/> before anything is timed: the
    /// runtime promotes hot methods to optimised code only after a quiet spell in new compilations
    /// (see <see cref="TwoHopCpuLoop"/>), and a batch of a few thousand lookups ends before that.
    /// </summary>
    private static void WarmUp(Func<int, decimal> operation, TimeSpan time)
    {
        var checksum = 0m;
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        for (var i = 0; System.Diagnostics.Stopwatch.GetElapsedTime(started) < time; i++)
        {
            checksum += operation(i);
        }

        GC.KeepAlive(checksum);
    }
}
