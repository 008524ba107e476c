using System.Runtime.InteropServices;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// CPU time the calling thread has used (Linux <c>CLOCK_THREAD_CPUTIME_ID</c>); 0 where it cannot
/// be read. Wall time on a shared, loaded machine mostly measures the scheduler; a synchronous
/// operation's client work runs on the calling thread, so its CPU time is what one client costs
/// against another, load or not (the server's own work is not in it).
/// </summary>
internal static class ThreadCpuClock
{
    private const int ThreadCpuTimeId = 3;

    public static bool IsAvailable { get; } = OperatingSystem.IsLinux() && TryRead(out _);

    public static long NowNs() => IsAvailable && TryRead(out var ns) ? ns : 0;

    private static bool TryRead(out long ns)
    {
        ns = 0;
        try
        {
            if (ClockGetTime(ThreadCpuTimeId, out var time) != 0)
            {
                return false;
            }

            ns = (time.Seconds * 1_000_000_000L) + time.Nanoseconds;
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

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int ClockGetTime(int clock, out TimeSpec time);
}
