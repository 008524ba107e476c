using System.Diagnostics;
using System.Runtime;
using BLite.Benchmarks.Comparison;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Plain timing loops: a warm-up, then timed samples until a time budget is spent. Fast operations
/// are timed in small batches so the timer's own cost stays under a few percent; the figure is the
/// median per-operation time over samples, which a noisy shared machine disturbs least.
/// </summary>
/// <remarks>
/// Warm-up lasts until the JIT has been quiet for a while, not for a fixed time: tiered
/// compilation replaces a method's first code only after it has run for a while plus a delay,
/// so a fixed short warm-up would time unoptimized code for whichever scenario runs first.
/// </remarks>
internal sealed class OperationTimer(TimeSpan warmUp, TimeSpan maxWarmUp, TimeSpan budget, int minSamples, int maxSamples)
{
    /// <summary>The timer whose figures are reported.</summary>
    public static OperationTimer Measuring() =>
        new(TimeSpan.FromMilliseconds(50), TimeSpan.FromMilliseconds(600), TimeSpan.FromMilliseconds(100), minSamples: 5, maxSamples: 5000);

    /// <summary>
    /// A few quick samples per scenario: enough calls for tiered compilation to queue every hot
    /// method for optimization, not enough to wait for it.
    /// </summary>
    public static OperationTimer Rehearsing() =>
        new(TimeSpan.Zero, TimeSpan.FromMilliseconds(20), TimeSpan.FromMilliseconds(10), minSamples: 3, maxSamples: 50);

    private const double TargetSampleNs = 20_000;
    private const int MaxBatch = 256;
    private const int MinRoundSamples = 3;
    private static readonly TimeSpan JitQuietPeriod = TimeSpan.FromMilliseconds(200);

    /// <summary>
    /// Times <paramref name="operation"/>(index) for index = 0, 1, 2... (never reaching
    /// <paramref name="maxOperations"/>). <paramref name="untimedAfterEach"/>, when given, runs
    /// after every operation outside the timed region (to restore state), and forces one
    /// operation per sample.
    /// </summary>
    public Measurement Measure(int maxOperations, Action<int> operation, Action<int>? untimedAfterEach = null)
    {
        var index = 0;
        long warmUpTicks = 0;
        var warmUpStart = Stopwatch.GetTimestamp();
        var jit = new JitWatch();
        while (index < maxOperations / 4 && (index < 2 || !jit.IsWarm(warmUpStart, warmUp, maxWarmUp)))
        {
            var start = Stopwatch.GetTimestamp();
            operation(index);
            warmUpTicks += Stopwatch.GetTimestamp() - start;
            untimedAfterEach?.Invoke(index);
            index++;
        }

        var batch = 1;
        if (untimedAfterEach is null && index > 0)
        {
            var estimateNs = TicksToNs(warmUpTicks) / index;
            batch = (int)Math.Clamp(Math.Ceiling(TargetSampleNs / Math.Max(estimateNs, 1)), 1, MaxBatch);
        }

        var samples = new List<double>();
        long allocated = 0;
        long timedOperations = 0;
        var measureStart = Stopwatch.GetTimestamp();
        while (samples.Count < maxSamples && index + batch <= maxOperations)
        {
            if (samples.Count >= minSamples && Stopwatch.GetElapsedTime(measureStart) >= budget)
            {
                break;
            }

            var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
            var start = Stopwatch.GetTimestamp();
            for (var i = 0; i < batch; i++)
            {
                operation(index + i);
            }

            var elapsed = Stopwatch.GetTimestamp() - start;
            allocated += GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
            untimedAfterEach?.Invoke(index);
            index += batch;
            timedOperations += batch;
            samples.Add(TicksToNs(elapsed) / batch);
        }

        return Summarize(samples, allocated, timedOperations, index, warmUpStart);
    }

    /// <summary>
    /// Times rounds of <paramref name="rounds"/> (all workers together); a round's wall time over
    /// <paramref name="operationsPerRound"/> is one sample. Allocation counts every thread.
    /// </summary>
    public Measurement MeasureRounds(ConcurrentRounds rounds, int operationsPerRound, int maxRounds)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxRounds, 4);
        // Warm-up: connections, JIT, caches. Rounds can be long (contended durable commits), so at
        // most a quarter of the rounds allowed go to it.
        var warmUpStart = Stopwatch.GetTimestamp();
        var jit = new JitWatch();
        var used = 0;
        do
        {
            rounds.RunRound();
            used++;
        }
        while (used < maxRounds / 4 && !jit.IsWarm(warmUpStart, warmUp, maxWarmUp));

        var samples = new List<double>();
        long allocated = 0;
        var measureStart = Stopwatch.GetTimestamp();
        while (samples.Count < maxSamples && used < maxRounds)
        {
            if (samples.Count >= Math.Min(minSamples, MinRoundSamples) && Stopwatch.GetElapsedTime(measureStart) >= budget)
            {
                break;
            }

            var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
            var start = Stopwatch.GetTimestamp();
            rounds.RunRound();
            var elapsed = Stopwatch.GetTimestamp() - start;
            allocated += GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
            used++;
            samples.Add(TicksToNs(elapsed) / operationsPerRound);
        }

        return Summarize(samples, allocated, (long)samples.Count * operationsPerRound, used, warmUpStart);
    }

    private static Measurement Summarize(List<double> samples, long allocated, long operations, int consumed, long startTimestamp)
    {
        if (samples.Count == 0)
        {
            throw new InvalidOperationException("No sample was taken: the operation pool is smaller than the warm-up.");
        }

        samples.Sort();
        var middle = samples.Count / 2;
        var median = samples.Count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
        return new Measurement(median, (double)allocated / operations, operations, consumed, Stopwatch.GetElapsedTime(startTimestamp));
    }

    /// <summary>Tracks when the JIT last compiled anything (tier-up included).</summary>
    private struct JitWatch()
    {
        private long _compiledMethods = JitInfo.GetCompiledMethodCount();
        private long _lastChange = Stopwatch.GetTimestamp();

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
                || (sinceStart >= minimum && Stopwatch.GetElapsedTime(_lastChange) >= JitQuietPeriod);
        }
    }

    private static double TicksToNs(long ticks) => ticks * (1_000_000_000.0 / Stopwatch.Frequency);
}
