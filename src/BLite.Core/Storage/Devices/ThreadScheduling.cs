using System.Runtime.InteropServices;

namespace BLite.Core.Storage.Devices;

/// <summary>How far the background checkpoint's thread steps back from the committers (docs/storage.md, "Background checkpoint").</summary>
internal enum BackgroundPriority
{
    /// <summary>Left as the OS made it.</summary>
    Normal,

    /// <summary>Nice 10: about a tenth of a nice-0 thread's share when both want a core.</summary>
    Nice10,

    /// <summary>Nice 19, the lowest nice value.</summary>
    Nice19,

    /// <summary>SCHED_IDLE: runs only on a core nothing else wants.</summary>
    Idle,
}

/// <summary>
/// Lowers the calling thread's scheduling priority on Linux. .NET's <c>Thread.Priority</c> does
/// nothing there, so this goes to the C library. Only ever called on a thread the engine owns:
/// an unprivileged thread cannot raise its priority back, so a thread-pool thread must never
/// come back from here.
/// </summary>
internal static partial class ThreadScheduling
{
    private const int PrioProcess = 0;
    private const int SchedIdle = 5;

    /// <summary>
    /// True when the calling thread now runs at <paramref name="priority"/>. False elsewhere than
    /// Linux, and on a refusal or a C library without the calls: the thread then keeps its
    /// priority, which is only slower for the committers, never wrong.
    /// </summary>
    public static bool TryLowerCurrentThread(BackgroundPriority priority)
    {
        if (priority == BackgroundPriority.Normal || !OperatingSystem.IsLinux())
        {
            return false;
        }

        try
        {
            var tid = NativeGetTid();
            return priority switch
            {
                BackgroundPriority.Nice10 => NativeSetPriority(PrioProcess, (uint)tid, 10) == 0,
                BackgroundPriority.Nice19 => NativeSetPriority(PrioProcess, (uint)tid, 19) == 0,
                _ => SetIdle(tid),
            };
        }
        catch (Exception exception) when (exception is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    private static unsafe bool SetIdle(int tid)
    {
        var parameter = 0;
        return NativeSetScheduler(tid, SchedIdle, &parameter) == 0;
    }

    [LibraryImport("libc", EntryPoint = "gettid")]
    private static partial int NativeGetTid();

    [LibraryImport("libc", EntryPoint = "setpriority", SetLastError = true)]
    private static partial int NativeSetPriority(int which, uint who, int priority);

    [LibraryImport("libc", EntryPoint = "sched_setscheduler", SetLastError = true)]
    private static unsafe partial int NativeSetScheduler(int pid, int policy, int* parameter);
}
