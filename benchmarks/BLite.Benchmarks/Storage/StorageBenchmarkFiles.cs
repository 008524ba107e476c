namespace BLite.Benchmarks.Storage;

/// <summary>A scratch directory on the same disk as the temp folder, removed at cleanup.</summary>
internal sealed class StorageBenchmarkFiles : IDisposable
{
    public StorageBenchmarkFiles()
    {
        Directory = Path.Combine(Path.GetTempPath(), "blite-bench", Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
    }

    public string Directory { get; }

    public string PathOf(string name) => Path.Combine(Directory, name);

    public void Dispose() => System.IO.Directory.Delete(Directory, recursive: true);
}
