using BLite.Benchmarks.Comparison;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Plain timing loops without BenchmarkDotNet: each engine's operation is warmed up until the JIT
/// is quiet, then every engine of a scenario samples in turns until each has spent its budget.
/// The figure is the median per-operation time over an engine's samples, which a noisy shared
/// machine disturbs least.
/// </summary>
internal sealed class OperationTimer(SamplingPlan plan)
{
    /// <summary>The timer whose figures are reported.</summary>
    public static OperationTimer Measuring() => new(new SamplingPlan(
        WarmUp: TimeSpan.FromMilliseconds(50), MaxWarmUp: TimeSpan.FromMilliseconds(600), Budget: TimeSpan.FromMilliseconds(150),
        Turn: TimeSpan.FromMilliseconds(5), MinSamples: 5, MaxSamples: 5000));

    /// <summary>
    /// A few quick samples per scenario: enough calls for tiered compilation to queue every hot
    /// method for optimization, not enough to wait for it.
    /// </summary>
    public static OperationTimer Rehearsing() => new(new SamplingPlan(
        WarmUp: TimeSpan.Zero, MaxWarmUp: TimeSpan.FromMilliseconds(20), Budget: TimeSpan.FromMilliseconds(10),
        Turn: TimeSpan.FromMilliseconds(5), MinSamples: 3, MaxSamples: 50));

    /// <summary>
    /// Samples <paramref name="operation"/>(index), index below <paramref name="maxOperations"/>;
    /// <paramref name="untimedAfterEach"/>, when given, restores state after every operation.
    /// </summary>
    public Sampler Operations(int maxOperations, Action<int> operation, Action<int>? untimedAfterEach = null) =>
        new OperationSampler(plan, maxOperations, operation, untimedAfterEach);

    /// <summary>Samples whole rounds of <paramref name="rounds"/>, at most <paramref name="maxRounds"/> of them, warm-up included.</summary>
    public Sampler Rounds(ConcurrentRounds rounds, int operationsPerRound, int maxRounds) =>
        new RoundSampler(plan, rounds, operationsPerRound, maxRounds);

    /// <summary>
    /// Warms every sampler up, then lets them take turns (first, second, ..., first again) until
    /// each is done, so the engines' figures of one scenario come from the same stretch of time.
    /// Returns one measurement per sampler, in order.
    /// </summary>
    public Measurement[] MeasureInterleaved(IReadOnlyList<Sampler> samplers)
    {
        foreach (var sampler in samplers)
        {
            sampler.WarmUp();
        }

        bool anyTurnTaken;
        do
        {
            anyTurnTaken = false;
            foreach (var sampler in samplers)
            {
                if (!sampler.IsDone)
                {
                    sampler.TakeTurn();
                    anyTurnTaken = true;
                }
            }
        }
        while (anyTurnTaken);

        var measurements = new Measurement[samplers.Count];
        for (var i = 0; i < measurements.Length; i++)
        {
            measurements[i] = samplers[i].Summarize();
        }

        return measurements;
    }
}
