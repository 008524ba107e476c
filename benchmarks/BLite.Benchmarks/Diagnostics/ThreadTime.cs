using System.Runtime.InteropServices;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) on Linux, the wall clock elsewhere: on a
/// loaded machine the wall clock mostly measures the wait for a core.
/// </summary>
internal static class ThreadTime
{
    private const int ClockThreadCpuTime = 3;

    public static bool IsThreadCpuTime => OperatingSystem.IsLinux();

    public static long NowNanoseconds()
    {
        if (IsThreadCpuTime && ClockGetTime(ClockThreadCpuTime, out var time) == 0)
        {
            return (time.Seconds * 1_000_000_000L) + time.Nanoseconds;
        }

        return (long)(System.Diagnostics.Stopwatch.GetTimestamp() * (1e9 / System.Diagnostics.Stopwatch.Frequency));
    }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    private static extern int ClockGetTime(int clock, out TimeSpec time);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
