using Microsoft.Win32.SafeHandles;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// The device's floor for the commit latency distribution at <c>flush</c>: one 8 KB write and a
/// flush to disk per operation, into a file zero-filled ahead as a log is, beside the engines' files
/// and in the same blocks. No engine's durable commit can beat it, so its max/p50 is what the
/// disk allows at all: an engine's flush tail beyond that is the engine's.
/// </summary>
internal sealed class DeviceFloor : IDisposable
{
    public const string Name = "device floor";
    private const int WriteBytes = 8192;
    private const int FilledWrites = 2048;

    private readonly SafeFileHandle _file;
    private readonly byte[] _page = new byte[WriteBytes];
    private long _writes;

    public DeviceFloor(string directory)
    {
        Directory.CreateDirectory(directory);
        _file = File.OpenHandle(Path.Combine(directory, "device-floor.bin"), FileMode.Create, FileAccess.ReadWrite, FileShare.None, FileOptions.DeleteOnClose);
        var zeros = new byte[WriteBytes];
        for (var i = 0; i < FilledWrites; i++)
        {
            RandomAccess.Write(_file, zeros, (long)i * WriteBytes);
        }

        RandomAccess.FlushToDisk(_file);
        Random.Shared.NextBytes(_page);
    }

    /// <summary>Overwrites the next 8 KB of the filled region, wrapping as a restarted log does, and flushes.</summary>
    public void Run()
    {
        _page[_writes & (WriteBytes - 1)] ^= 1;
        RandomAccess.Write(_file, _page, _writes++ % FilledWrites * WriteBytes);
        RandomAccess.FlushToDisk(_file);
    }

    public void Dispose() => _file.Dispose();
}
