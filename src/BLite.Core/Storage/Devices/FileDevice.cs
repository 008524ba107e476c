using Microsoft.Win32.SafeHandles;

namespace BLite.Core.Storage.Devices;

/// <summary>
/// A file accessed through <see cref="RandomAccess"/> (positional reads and writes, no shared
/// stream position, so readers on several threads need no lock). <see cref="Flush"/> is
/// <see cref="RandomAccess.FlushToDisk"/>: the data reaches the disk, not just the OS cache.
/// </summary>
internal sealed partial class FileDevice : IStorageDevice
{
    private readonly SafeFileHandle _handle;

    private FileDevice(string path, SafeFileHandle handle)
    {
        Name = path;
        _handle = handle;
    }

    public string Name { get; }

    public long Length => RandomAccess.GetLength(_handle);

    /// <summary>
    /// Opens (or creates) <paramref name="path"/> for reading and writing. With
    /// <paramref name="exclusive"/> the file is opened with <see cref="FileShare.None"/>, which
    /// .NET enforces on Linux and macOS with an advisory <c>flock</c>: any other opener using
    /// FileShare.None (another process or another handle in this process) fails. On Windows the
    /// exclusive mode still shares reading, so <see cref="OpenReadOnly"/> can inspect the file;
    /// another writer is refused all the same, since this handle does not share writing.
    /// </summary>
    public static FileDevice Open(string path, FileMode mode, bool exclusive)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var handle = File.OpenHandle(
            path,
            mode,
            FileAccess.ReadWrite,
            exclusive ? (OperatingSystem.IsWindows() ? FileShare.Read : FileShare.None) : FileShare.ReadWrite,
            FileOptions.RandomAccess);
        return new FileDevice(path, handle);
    }

    public int Read(long offset, Span<byte> destination)
    {
        var total = 0;
        while (total < destination.Length)
        {
            var read = RandomAccess.Read(_handle, destination[total..], offset + total);
            if (read == 0)
            {
                break;
            }

            total += read;
        }

        return total;
    }

    public void Write(long offset, ReadOnlySpan<byte> source) => RandomAccess.Write(_handle, source, offset);

    /// <summary>
    /// A gathered write. One that fits <see cref="StagingBytes"/> (a single-page commit on the log:
    /// a frame header and a page image) is copied into one buffer and written with one call, since
    /// the gathered form of <see cref="RandomAccess"/> allocates two arrays per call (pinned handles
    /// and I/O vectors), that is per commit.
    /// </summary>
    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        var total = 0L;
        for (var i = 0; i < sources.Count; i++)
        {
            total += sources[i].Length;
        }

        // Claimed rather than shared, in case two threads ever write through one device at once.
        if (total > StagingBytes || Interlocked.CompareExchange(ref _stagingInUse, 1, 0) != 0)
        {
            RandomAccess.Write(_handle, sources, offset);
            return;
        }

        try
        {
            var staging = _staging ??= GC.AllocateUninitializedArray<byte>(StagingBytes);
            var length = 0;
            for (var i = 0; i < sources.Count; i++)
            {
                sources[i].Span.CopyTo(staging.AsSpan(length));
                length += sources[i].Length;
            }

            RandomAccess.Write(_handle, staging.AsSpan(0, length), offset);
        }
        finally
        {
            Volatile.Write(ref _stagingInUse, 0);
        }
    }

    private const int StagingBytes = 24 * 1024;
    private byte[]? _staging;
    private int _stagingInUse;

    public void Flush() => RandomAccess.FlushToDisk(_handle);

    public void SetLength(long length) => RandomAccess.SetLength(_handle, length);

    /// <summary>
    /// <c>fallocate</c> on 64-bit Linux (the log filler's zeros then land on allocated blocks:
    /// docs/storage.md, "WAL file reuse and preallocation"); elsewhere false. A C library without
    /// the call is a refusal too: the filler then zero-fills as it would anywhere else, where an
    /// exception would have failed the log.
    /// </summary>
    public bool Reserve(long offset, long length)
    {
        if (!OperatingSystem.IsLinux() || !Environment.Is64BitProcess)
        {
            return false;
        }

        try
        {
            return NativeFallocate(_handle, 0, offset, length) == 0;
        }
        catch (Exception exception) when (exception is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    public void Dispose() => _handle.Dispose();

    [System.Runtime.InteropServices.LibraryImport("libc", EntryPoint = "fallocate", SetLastError = true)]
    private static partial int NativeFallocate(SafeFileHandle handle, int mode, long offset, long length);
}
