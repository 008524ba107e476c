using System.Runtime.InteropServices;

namespace BLite.Core.Storage.Devices;

internal sealed partial class FileDevice
{
    /// <summary>
    /// Flushes the directory holding <paramref name="path"/> to stable storage, so a rename into
    /// it (the last step of a backup, a compact or a rekey) survives a power cut: on Linux and
    /// macOS a renamed file's new name is directory metadata, durable only once the directory
    /// itself is synced. On Windows NTFS journals the rename and a directory cannot be flushed,
    /// so this does nothing there.
    /// </summary>
    public static void FlushDirectoryOf(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        var directory = System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!;
        var flags = OperatingSystem.IsMacOS() || OperatingSystem.IsIOS() ? MacReadOnlyCloseOnExec : LinuxReadOnlyCloseOnExec;
        var descriptor = NativeOpen(directory, flags);
        if (descriptor < 0)
        {
            throw ErrnoException(directory, Marshal.GetLastPInvokeError());
        }

        try
        {
            if (NativeFsync(descriptor) != 0)
            {
                var errno = Marshal.GetLastPInvokeError();
                throw new IOException($"Flushing the directory '{directory}' to stable storage failed ({Marshal.GetPInvokeErrorMessage(errno)}); the rename into it may not survive a power cut.", errno);
            }
        }
        finally
        {
            _ = NativeClose(descriptor);
        }
    }

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int NativeFsync(int descriptor);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int NativeClose(int descriptor);
}
