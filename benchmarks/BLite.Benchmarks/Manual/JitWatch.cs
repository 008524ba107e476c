using System.Diagnostics;
using System.Runtime;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Tracks when the JIT last compiled anything (tier-up included), so a warm-up can last until the
/// code being timed is the optimized code rather than for a fixed time: tiered compilation replaces
/// a method's first code only after it has run for a while plus a delay.
/// </summary>
internal struct JitWatch()
{
    private static readonly TimeSpan QuietPeriod = TimeSpan.FromMilliseconds(200);

    private long _compiledMethods = JitInfo.GetCompiledMethodCount();
    private long _lastChange = Stopwatch.GetTimestamp();

    /// <summary>
    /// True once <paramref name="minimum"/> has passed since <paramref name="warmUpStart"/> and the
    /// JIT has been quiet for a while, or once <paramref name="maximum"/> has passed.
    /// </summary>
    public bool IsWarm(long warmUpStart, TimeSpan minimum, TimeSpan maximum)
    {
        var compiled = JitInfo.GetCompiledMethodCount();
        if (compiled != _compiledMethods)
        {
            _compiledMethods = compiled;
            _lastChange = Stopwatch.GetTimestamp();
        }

        var sinceStart = Stopwatch.GetElapsedTime(warmUpStart);
        return sinceStart >= maximum
            || (sinceStart >= minimum && Stopwatch.GetElapsedTime(_lastChange) >= QuietPeriod);
    }
}
