using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines;

namespace BLite.Benchmarks.Comparison;

/// <summary>
/// What every store benchmark shares: the dataset size and durability parameters, one store per
/// engine created in a fresh directory and loaded with the seeded dataset, and cleanup.
/// Subclasses pick their durability levels and sizes by overriding the sources.
/// </summary>
public abstract class StoreBenchmarkBase
{
    private string? _directory;
    private IOrderStore? _store;
    private ComparisonDataset? _data;

    protected static readonly StoreDurability[] AllDurabilityLevels =
        [StoreDurability.FlushPerCommit, StoreDurability.OsBuffered, StoreDurability.InMemory];

    [ParamsSource(nameof(DocumentCountValues))]
    public int Documents { get; set; }

    [ParamsSource(nameof(DurabilityValues))]
    public StoreDurability Durability { get; set; }

    // BenchmarkDotNet resolves a params source by name and refuses overridden members, so the
    // sources stay non-virtual and ask the scenario's virtual members.
    public IEnumerable<int> DocumentCountValues => DocumentCountsOverride(DocumentCounts);

    public IEnumerable<StoreDurability> DurabilityValues => DurabilityLevels;

    protected virtual IEnumerable<int> DocumentCounts => [1_000, 100_000];

    /// <summary>
    /// <c>BLITE_BENCH_DOCUMENTS=1000</c> (comma-separated sizes) keeps only the listed dataset sizes
    /// a scenario offers, for a quick run; BenchmarkDotNet has no command-line filter on parameters.
    /// </summary>
    private static IEnumerable<int> DocumentCountsOverride(IEnumerable<int> offered)
    {
        var listed = Environment.GetEnvironmentVariable("BLITE_BENCH_DOCUMENTS");
        if (string.IsNullOrWhiteSpace(listed))
        {
            return offered;
        }

        var wanted = Array.ConvertAll(listed.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries), int.Parse);
        return offered.Where(wanted.Contains).ToArray();
    }

    /// <summary>Reads do not depend on the commit path, so read scenarios run OS-buffered only.</summary>
    protected virtual IEnumerable<StoreDurability> DurabilityLevels => [StoreDurability.OsBuffered];

    protected IOrderStore Store => _store ?? throw new InvalidOperationException("The store is not set up.");

    protected ComparisonDataset Data => _data ?? throw new InvalidOperationException("The dataset is not set up.");

    protected virtual bool IndexStatus => false;

    [GlobalCleanup]
    public void CleanUp()
    {
        OnCleanUp();
        _store?.Dispose();
        _store = null;
        if (_directory is not null && Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    /// <summary>Creates and loads the named engine's store, then lets the scenario prepare.</summary>
    protected void SetUp(string engine)
    {
        _directory = Path.Combine(Path.GetTempPath(), $"blite-bench-{engine}-{Guid.NewGuid():N}".ToLowerInvariant());
        _data = ComparisonDataset.Create(Documents, sampleCount: 1000);
        _store = OrderStores.Get(engine).Create(new OrderStoreOptions(_directory, Durability, IndexStatus));
        _data.Populate(_store);
        Prepare();
    }

    /// <summary>Runs once after the store is loaded, outside any measurement.</summary>
    protected virtual void Prepare()
    {
    }

    protected virtual void OnCleanUp()
    {
    }
}
