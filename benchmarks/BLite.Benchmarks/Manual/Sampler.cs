using System.Diagnostics;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// One engine's timing of one scenario, taken turn by turn so that every engine's sampler of a
/// scenario can alternate with the others (<see cref="OperationTimer.MeasureInterleaved"/>): a burst
/// of load from another tenant of this shared VM then falls on every engine's samples alike instead
/// of deciding one engine's figure. The figure is the median per-operation time over all samples.
/// </summary>
internal abstract class Sampler
{
    private readonly List<double> _samples = [];
    private long _allocatedBytes;
    private long _timedOperations;
    private long _cpuNs;
    private long _activeTicks;
    private long _sampledTicks;
    private int _turns;
    private long _samplesPerTurn = long.MaxValue;

    protected Sampler(SamplingPlan plan)
    {
        Plan = plan;
    }

    protected SamplingPlan Plan { get; }

    /// <summary>True once the budget is spent (and enough samples are taken), or the pool of operations is.</summary>
    public bool IsDone =>
        _samples.Count >= Plan.MaxSamples
        || !CanTakeSample
        || (_samples.Count >= MinSamples && Stopwatch.GetElapsedTime(0, _sampledTicks) >= Plan.Budget);

    /// <summary>Samples below which the budget does not end the measurement.</summary>
    protected virtual int MinSamples => Plan.MinSamples;

    /// <summary>False when the next sample would need operations beyond the pool.</summary>
    protected abstract bool CanTakeSample { get; }

    /// <summary>Operation indexes (or rounds) used so far, warm-up included.</summary>
    protected abstract int OperationsConsumed { get; }

    /// <summary>Samples the rest of the pool allows (huge for pools without a real end).</summary>
    protected abstract long SamplesLeftInPool { get; }

    public void WarmUp()
    {
        var start = Stopwatch.GetTimestamp();
        WarmUpOperations();
        _activeTicks += Stopwatch.GetTimestamp() - start;

        // A small pool of quick operations (300 large documents, 5 batches) would be spent in a
        // turn or two, which is no alternation at all: its samples are spread over the turns the
        // budget plans for instead.
        var plannedTurns = Math.Max(1, (long)Math.Ceiling(Plan.Budget / Plan.Turn));
        var samplesLeft = Math.Min(SamplesLeftInPool, Plan.MaxSamples);
        _samplesPerTurn = Math.Max(1, (samplesLeft + plannedTurns - 1) / plannedTurns);
    }

    /// <summary>Takes samples for one turn (at least one sample, unless done).</summary>
    public void TakeTurn()
    {
        var turnStart = Stopwatch.GetTimestamp();
        var last = turnStart;
        for (var taken = 0L; taken < _samplesPerTurn && !IsDone; taken++)
        {
            var cpuStart = ThreadCpuClock.NowNs();
            var sample = TakeSample();
            _cpuNs += ThreadCpuClock.NowNs() - cpuStart;
            _samples.Add(sample.NsPerOperation);
            _allocatedBytes += sample.AllocatedBytes;
            _timedOperations += sample.Operations;
            var now = Stopwatch.GetTimestamp();
            _sampledTicks += now - last;
            last = now;
            if (Stopwatch.GetElapsedTime(turnStart, now) >= Plan.Turn)
            {
                break;
            }
        }

        _activeTicks += last - turnStart;
        _turns++;
    }

    public Measurement Summarize()
    {
        if (_samples.Count == 0)
        {
            throw new InvalidOperationException("No sample was taken: the operation pool is smaller than the warm-up.");
        }

        var sorted = _samples.ToArray();
        Array.Sort(sorted);
        var middle = sorted.Length / 2;
        var median = sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Measurement(median, (double)_allocatedBytes / _timedOperations, _timedOperations, OperationsConsumed,
            _turns, Stopwatch.GetElapsedTime(0, _activeTicks), ThreadCpuClock.IsAvailable ? (double)_cpuNs / _timedOperations : null);
    }

    /// <summary>Runs operations untimed until the code and caches they use are warm.</summary>
    protected abstract void WarmUpOperations();

    /// <summary>Times one sample (one or several operations) and consumes its operations.</summary>
    protected abstract Sample TakeSample();

    protected static double TicksToNs(long ticks) => ticks * (1_000_000_000.0 / Stopwatch.Frequency);

    /// <param name="NsPerOperation">The sample's time over its operations.</param>
    /// <param name="AllocatedBytes">Managed bytes allocated during the timed region.</param>
    /// <param name="Operations">Operations the sample timed.</param>
    protected readonly record struct Sample(double NsPerOperation, long AllocatedBytes, int Operations);
}
