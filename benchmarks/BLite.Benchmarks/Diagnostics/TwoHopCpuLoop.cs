using BLite.Benchmarks.Query.References;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile two-hop-cpu [ROUNDS] [DOCUMENTS]</c>: the manual mode's two-hop query (orders of
/// every account of one city) for BLite and SQLite+JSON in one process, batch by batch in turn,
/// each batch timed by the calling thread's CPU time; prints the medians and their ratio. Where
/// <c>profile compare two-hop</c> keeps each engine's best wall-clock batch, this leaves out the
/// time spent waiting for a core, so it holds up on a loaded machine.
/// </summary>
internal static class TwoHopCpuLoop
{
    private const int Batch = 200;

    public static int Run(string[] args)
    {
        var rounds = 15;
        var documents = 1000;
        if (args.Length > 2 || (args.Length > 0 && (!int.TryParse(args[0], out rounds) || rounds < 1))
            || (args.Length > 1 && (!int.TryParse(args[1], out documents) || documents < 10)))
        {
            Console.Error.WriteLine("usage: profile two-hop-cpu [ROUNDS] [DOCUMENTS]");
            return 2;
        }

        var data = LinkedDataset.Create(documents);
        IReferencePeer[] peers = [new BLiteReferencePeer(data), new SqliteReferencePeer(data)];
        try
        {
            var samples = peers.Select(_ => new List<double>()).ToArray();
            var allocated = new long[peers.Length];
            var checksums = new long[peers.Length];
            WarmUp(peers);
            for (var round = 0; round < rounds; round++)
            {
                for (var p = 0; p < peers.Length; p++)
                {
                    var peer = peers[p];
                    var checksum = 0L;
                    var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
                    var started = ThreadTime.NowNanoseconds();
                    for (var i = 0; i < Batch; i++)
                    {
                        checksum += peer.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities));
                    }

                    var elapsed = ThreadTime.NowNanoseconds() - started;
                    samples[p].Add(elapsed / 1000.0 / Batch);
                    allocated[p] = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / Batch;

                    checksums[p] = checksum;
                }
            }

            if (checksums[0] != checksums[1])
            {
                Console.Error.WriteLine($"two-hop-cpu: the engines disagree (checksums {checksums[0]} and {checksums[1]})");
                return 1;
            }

            var medians = samples.Select(FloorPartsLoop.Median).ToArray();
            Console.WriteLine($"two-hop-cpu: median of {rounds} batches of {Batch}, {(ThreadTime.IsThreadCpuTime ? "thread CPU time" : "wall-clock time")}, {documents} documents");
            for (var p = 0; p < peers.Length; p++)
            {
                Console.WriteLine($"  {peers[p].Engine,-12} {medians[p],8:F3} us/op  {allocated[p],6} B/op");
            }

            Console.WriteLine($"  SQLite+JSON / BLite {medians[1] / medians[0]:F2}x");
            return 0;
        }
        finally
        {
            foreach (var peer in peers)
            {
                peer.Dispose();
            }
        }
    }

    /// <summary>
    /// Runs each engine for <see cref="WarmUpTime"/> before anything is timed. A single batch is
    /// not enough: the runtime promotes hot methods to optimised code only after a quiet spell in
    /// new compilations, which for this query took 1-2 s here, and batches timed before that
    /// measured BLite 3-4x slower than its steady state (docs in BENCHMARKS.md, 2026-11-25).
    /// </summary>
    private static void WarmUp(IReferencePeer[] peers)
    {
        foreach (var peer in peers)
        {
            var started = System.Diagnostics.Stopwatch.GetTimestamp();
            for (var i = 0; System.Diagnostics.Stopwatch.GetElapsedTime(started) < WarmUpTime; i++)
            {
                peer.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities));
            }
        }
    }

    private static readonly TimeSpan WarmUpTime = TimeSpan.FromSeconds(3);
}
