using BLite.Benchmarks.Query.References;
using BLite.Linq;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// <c>query-overhead [ROUNDS] [DOCUMENTS]</c>: what a small LINQ query costs besides its documents,
/// on the two-hop scenario's linked data (in memory). Each step runs in batches, the steps taking
/// turns round by round, and the best batch of each is printed: building the first hop's query
/// (the caller's expression tree, no execution), running it for a city no account has (every
/// fixed cost, no row), running it for a real city (two ids at 1,000 orders), the second hop
/// returning only ids (index entries, no order read), and the whole two-hop query. "BLite's own"
/// is the empty run minus the build: translation lookup, binding, planning, snapshot, enumerators.
/// Last, the pages one two-hop query reads (cache and memo hits), averaged over every city: a
/// count of work that load on the machine does not change.
/// </summary>
internal static class QueryOverheadLoop
{
    public static int Run(string[] args)
    {
        var rounds = args.Length > 0 && int.TryParse(args[0], out var r) && r > 0 ? r : 20;
        var documents = args.Length > 1 && int.TryParse(args[1], out var d) && d >= 100 ? d : 1000;
        var data = LinkedDataset.Create(documents);
        using var peer = new BLiteReferencePeer(data);
        using var db = new LinkedContext(DocumentDbContextOptions.ForMemory());
        db.Accounts.InsertMany(data.Accounts);
        db.Orders.InsertMany(data.Orders);
        var ids = Enumerable.Range(0, LinkedDataset.Cities)
            .Select(c => data.Accounts.Where(a => a.City == LinkedDataset.City(c)).Select(a => a.Id).ToList()).ToArray();

        (string Name, Func<int, int> Run)[] steps =
        [
            ("build the first hop's query", _ =>
            {
                var city = "nowhere";
                return db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id).Expression.NodeType == 0 ? 1 : 0;
            }),
            ("first hop, no match", _ =>
            {
                var city = "nowhere";
                return db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id).ToList().Count;
            }),
            ("first hop, one city", i =>
            {
                var city = LinkedDataset.City(i % LinkedDataset.Cities);
                return db.Accounts.Query().Where(a => a.City == city).Select(a => a.Id).ToList().Count;
            }),
            ("second hop, ids only", i =>
            {
                var accounts = ids[i % LinkedDataset.Cities];
                return db.Orders.Query().Where(o => accounts.Contains(o.Account!.Id)).Select(o => o.Id).ToList().Count;
            }),
            ("two-hop (orders materialized)", i => peer.OrdersOfCity(LinkedDataset.City(i % LinkedDataset.Cities))),
            ("two-hop, compiled queries", i => peer.OrdersOfCityCompiled(LinkedDataset.City(i % LinkedDataset.Cities))),
        ];

        var batch = Math.Max(10, 2000 * 1000 / documents);
        var best = new double[steps.Length];
        var allocated = new long[steps.Length];
        Array.Fill(best, double.MaxValue);
        for (var round = 0; round < rounds; round++)
        {
            for (var s = 0; s < steps.Length; s++)
            {
                var checksum = 0;
                var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
                var started = System.Diagnostics.Stopwatch.GetTimestamp();
                for (var i = 0; i < batch; i++)
                {
                    checksum += steps[s].Run(i);
                }

                best[s] = Math.Min(best[s], System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds * 1000 / batch);
                allocated[s] = (GC.GetAllocatedBytesForCurrentThread() - allocatedBefore) / batch;
                GC.KeepAlive(checksum);
            }
        }

        for (var s = 0; s < steps.Length; s++)
        {
            Console.WriteLine($"{steps[s].Name,-32} {best[s],9:F2} us/op {allocated[s],8} B/op");
        }

        Console.WriteLine($"{"BLite's own per-query cost",-32} {best[1] - best[0],9:F2} us/op {allocated[1] - allocated[0],8} B/op (no match minus build; best of {rounds} batches of {batch}, {documents} documents)");
        var readsBefore = peer.PageReads;
        for (var i = 0; i < LinkedDataset.Cities; i++)
        {
            peer.OrdersOfCity(LinkedDataset.City(i));
        }

        Console.WriteLine($"{"two-hop page reads",-32} {(peer.PageReads - readsBefore) / (double)LinkedDataset.Cities,9:F1} pages/op (every city once)");
        return 0;
    }
}
