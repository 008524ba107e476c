using System.Diagnostics;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Manual;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// What the profile loops share: BLite's and SQLite's stores (or only the engines named) at one
/// durability, each in a fresh directory and loaded with the same dataset, then measured one turn
/// per engine per round, engines alternating. Round 0 warms up the JIT and the caches and is not
/// printed. With <c>BLITE_PROFILE_STORES</c> naming a directory, the stores live there and are
/// kept: a later run over the same dataset opens them instead of loading a million orders again
/// (a store holding some other count is refused, so a half-loaded one is never measured).
/// </summary>
internal static class AlternatingRounds
{
    public static void Run(ComparisonDataset data, StoreDurability durability, bool indexStatus, IReadOnlyCollection<string> engines, int rounds, string scenario, Func<IOrderStore, string> measure)
    {
        var factories = OrderStores.Offering(durability)
            .Where(f => f.Engine is "BLite" or "SQLite")
            .Where(f => engines.Count == 0 || engines.Contains(f.Engine, StringComparer.OrdinalIgnoreCase))
            .ToArray();
        var kept = Environment.GetEnvironmentVariable("BLITE_PROFILE_STORES");
        var directory = string.IsNullOrEmpty(kept)
            ? Path.Combine(Path.GetTempPath(), $"blite-profile-{Environment.ProcessId}")
            : Path.Combine(kept, $"{durability}-{data.Documents}-{(indexStatus ? "indexed" : "plain")}");
        using var stores = new DisposableList<IOrderStore>();
        try
        {
            foreach (var factory in factories)
            {
                var store = factory.Create(new OrderStoreOptions(Path.Combine(directory, factory.Engine), durability, indexStatus));
                stores.Add(store);
                var held = string.IsNullOrEmpty(kept) ? 0 : store.Count;
                if (held == data.Documents)
                {
                    Console.WriteLine($"{store.Engine}: {held:N0} orders kept in {directory}");
                    continue;
                }

                if (held != 0)
                {
                    throw new InvalidOperationException($"{store.Engine} in {directory} holds {held:N0} orders, not {data.Documents:N0}: delete the directory.");
                }

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
            if (string.IsNullOrEmpty(kept) && Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }
}
