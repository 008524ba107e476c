using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace BLite.Core.Storage.Devices;

internal sealed partial class FileDevice
{
    private const int LinuxReadOnlyCloseOnExec = 0x80000;
    private const int MacReadOnlyCloseOnExec = 0x1000000;

    /// <summary>
    /// Opens an existing file for reading only, without taking or waiting for any lock, so a
    /// database another process holds open (or a file the user may only read) can be inspected.
    /// On Linux and macOS .NET would take a shared <c>flock</c>, which the writer's exclusive one
    /// refuses, so the file is opened with <c>open(2)</c> directly; on Windows the writer shares
    /// reading (see <see cref="Open"/>) and the file is opened sharing everything.
    /// Writes through the returned device fail.
    /// </summary>
    public static FileDevice OpenReadOnly(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (OperatingSystem.IsWindows())
        {
            return new FileDevice(path, File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, FileOptions.RandomAccess));
        }

        var flags = OperatingSystem.IsMacOS() || OperatingSystem.IsIOS() ? MacReadOnlyCloseOnExec : LinuxReadOnlyCloseOnExec;
        var descriptor = NativeOpen(path, flags);
        if (descriptor < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            throw ErrnoException(path, errno);
        }

        return new FileDevice(path, new SafeFileHandle(descriptor, ownsHandle: true));
    }

    // The errno values that mean the same on Linux and macOS.
    private static Exception ErrnoException(string path, int errno) => errno switch
    {
        2 => new FileNotFoundException($"Could not find file '{path}'.", path),
        13 or 1 => new UnauthorizedAccessException($"Access to the path '{path}' is denied."),
        _ => new IOException($"Opening '{path}' for reading failed ({Marshal.GetPInvokeErrorMessage(errno)}).", errno),
    };

    [LibraryImport("libc", EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int NativeOpen(string path, int flags);
}
