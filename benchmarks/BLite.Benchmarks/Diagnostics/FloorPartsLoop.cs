using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Engines.MemoryPackCodec;
using BLite.Benchmarks.Query;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>profile floor-parts [ROUNDS]</c>: FindById of a whole order taken apart against MemoryPack's
/// deserializer (issue #15), over 1,000 orders in memory: MemoryPack's deserialize-one, BLite's
/// generated deserializer alone on the same orders, FindById (lookup and deserialization), a
/// two-field projection by id (the lookup with almost nothing to materialise), and both codecs'
/// serialize-one. The parts take turns, batch by batch, and each is timed by the CPU time of the
/// calling thread where the platform gives it (Linux), so time spent waiting for a core on a
/// loaded machine is left out; the figures are medians over the rounds.
/// </summary>
internal static class FloorPartsLoop
{
    private const int Batch = 20_000;

    public static int Run(string[] args)
    {
        var rounds = 15;
        if (args.Length > 1 || (args.Length == 1 && (!int.TryParse(args[0], out rounds) || rounds < 1)))
        {
            Console.Error.WriteLine("usage: profile floor-parts [ROUNDS]");
            return 2;
        }

        var orders = new OrderGenerator().Generate(1000);
        var keys = orders.Select(o => o.Id).ToArray();
        var memoryPack = new MemoryPackOrderCodec();
        var memoryPackBytes = orders.Select(o => memoryPack.Serialize(o).ToArray()).ToArray();
        var blite = new BLiteOrderCodec();
        var bliteBytes = orders.Select(o => blite.Serialize(o).ToArray()).ToArray();
        using var peer = new BLiteProjectionPeer(orders, prepared: true);
        var parts = new (string Name, Func<int, decimal> Operation)[]
        {
            ("MemoryPack deserialize-one", i => memoryPack.Deserialize(memoryPackBytes[i % 1000]).Total),
            ("BLite deserialize-one", i => blite.Deserialize(bliteBytes[i % 1000]).Total),
            ("BLite FindById", i => peer.FindWholeById(keys[i % 1000])),
            ("BLite project-by-id (2 fields)", i => peer.ProjectById(keys[i % 1000])),
            ("MemoryPack serialize-one", i => memoryPack.Serialize(orders[i % 1000]).Length),
            ("BLite serialize-one", i => blite.Serialize(orders[i % 1000]).Length),
        };

        var samples = parts.Select(_ => new List<double>()).ToArray();
        var allocated = new long[parts.Length];
        for (var round = 0; round < rounds; round++)
        {
            for (var part = 0; part < parts.Length; part++)
            {
                var operation = parts[part].Operation;
                var checksum = 0m;
                var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
                var started = ThreadTime.NowNanoseconds();
                for (var i = 0; i < Batch; i++)
                {
                    checksum += operation(i);
                }

                samples[part].Add((ThreadTime.NowNanoseconds() - started) / 1000.0 / Batch);
                allocated[part] = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / Batch;
                GC.KeepAlive(checksum);
            }
        }

        var floor = Median(samples[0]);
        Console.WriteLine($"floor-parts: median of {rounds} batches of {Batch}, {(ThreadTime.IsThreadCpuTime ? "thread CPU time" : "wall-clock time")}, 1000 documents");
        for (var part = 0; part < parts.Length; part++)
        {
            var median = Median(samples[part]);
            Console.WriteLine($"  {parts[part].Name,-32} {median,7:F3} us/op  {allocated[part],5} B/op  {median / floor:F2}x MemoryPack deserialize-one");
        }

        return 0;
    }

    internal static double Median(List<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted[sorted.Length / 2];
    }
}
