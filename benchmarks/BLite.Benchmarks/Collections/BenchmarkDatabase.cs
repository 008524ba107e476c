using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core;

namespace BLite.Benchmarks.Collections;

/// <summary>A file-backed database in a temp directory for one benchmark class, deleted afterwards.</summary>
internal sealed class BenchmarkDatabase : IDisposable
{
    private readonly string _directory;

    public BenchmarkDatabase(Durability durability = Durability.Normal)
    {
        _directory = Path.Combine(Path.GetTempPath(), "blite-bench-collections-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        Database = DocumentDatabase.Open(Path.Combine(_directory, "bench.blite"), new StorageOptions
        {
            Durability = durability,
            CacheBudgetBytes = 256L * 1024 * 1024,
        });
    }

    public DocumentDatabase Database { get; }

    public void Dispose()
    {
        Database.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
