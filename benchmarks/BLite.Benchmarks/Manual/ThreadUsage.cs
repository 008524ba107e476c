using System.Runtime.InteropServices;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// The calling thread's context switches and page faults so far (Linux <c>getrusage(RUSAGE_THREAD)</c>);
/// zeros where they cannot be read. An involuntary switch means the scheduler took the core away
/// (the thread was runnable and waited for a core); a voluntary one means the thread blocked (a
/// lock, an I/O wait, an fsync). A major fault means a page had to be read from the disk.
/// </summary>
internal static class ThreadUsage
{
    private const int ThreadScope = 1;

    public static bool IsAvailable { get; } = OperatingSystem.IsLinux() && TryRead(out _);

    public static Sample Now() => IsAvailable && TryRead(out var sample) ? sample : default;

    private static bool TryRead(out Sample sample)
    {
        sample = default;
        try
        {
            if (GetResourceUsage(ThreadScope, out var usage) != 0)
            {
                return false;
            }

            sample = new Sample(usage.VoluntarySwitches, usage.InvoluntarySwitches, usage.MinorFaults, usage.MajorFaults);
            return true;
        }
        catch (DllNotFoundException)
        {
            return false;
        }
        catch (EntryPointNotFoundException)
        {
            return false;
        }
    }

    public readonly record struct Sample(long VoluntarySwitches, long InvoluntarySwitches, long MinorFaults, long MajorFaults);

    /// <summary>Linux x64/arm64 <c>struct rusage</c>: two timevals, then fourteen longs.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct ResourceUsage
    {
        public long UserSeconds;
        public long UserMicroseconds;
        public long SystemSeconds;
        public long SystemMicroseconds;
        public long MaxResidentSet;
        public long SharedText;
        public long UnsharedData;
        public long UnsharedStack;
        public long MinorFaults;
        public long MajorFaults;
        public long Swaps;
        public long BlockInputs;
        public long BlockOutputs;
        public long MessagesSent;
        public long MessagesReceived;
        public long Signals;
        public long VoluntarySwitches;
        public long InvoluntarySwitches;
    }

    [DllImport("libc", EntryPoint = "getrusage")]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int GetResourceUsage(int who, out ResourceUsage usage);
}
