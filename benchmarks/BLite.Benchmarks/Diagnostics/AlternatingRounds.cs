using System.Diagnostics;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Manual;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// What the profile loops share: BLite's and SQLite's stores (or only the engines named) at one
/// durability, each in a fresh directory and loaded with the same dataset, then measured one turn
/// per engine per round, engines alternating. Round 0 warms up the JIT and the caches and is not
/// printed.
/// </summary>
internal static class AlternatingRounds
{
    public static void Run(ComparisonDataset data, StoreDurability durability, bool indexStatus, IReadOnlyCollection<string> engines, int rounds, string scenario, Func<IOrderStore, string> measure)
    {
        var factories = OrderStores.Offering(durability)
            .Where(f => f.Engine is "BLite" or "SQLite")
            .Where(f => engines.Count == 0 || engines.Contains(f.Engine, StringComparer.OrdinalIgnoreCase))
            .ToArray();
        var directory = Path.Combine(Path.GetTempPath(), $"blite-profile-{Environment.ProcessId}");
        using var stores = new DisposableList<IOrderStore>();
        try
        {
            foreach (var factory in factories)
            {
                var store = factory.Create(new OrderStoreOptions(Path.Combine(directory, factory.Engine), durability, indexStatus));
                stores.Add(store);
                var loading = Stopwatch.StartNew();
                data.Populate(store);
                Console.WriteLine($"{store.Engine}: {data.Documents:N0} orders loaded in {loading.Elapsed.TotalSeconds:F1} s");
            }

            for (var round = 0; round <= rounds; round++)
            {
                foreach (var store in stores)
                {
                    var measured = measure(store);
                    if (round > 0)
                    {
                        Console.WriteLine($"{scenario} {store.Engine,-6} {measured}");
                    }
                }
            }
        }
        finally
        {
            stores.Dispose();
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }
}
