using System.Diagnostics;
using BLite.Benchmarks.Comparison;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Samples rounds of <see cref="ConcurrentRounds"/> (all workers together); a round's wall time
/// over its operations is one sample. Allocation counts every thread, which is sound only because
/// the other engines' workers are parked while this engine has its turn.
/// </summary>
internal sealed class RoundSampler : Sampler
{
    // Rounds can be long (contended durable commits), so fewer samples than for single operations will do.
    private const int MinRoundSamples = 3;

    private readonly ConcurrentRounds _rounds;
    private readonly int _operationsPerRound;
    private readonly int _maxRounds;
    private int _used;

    public RoundSampler(SamplingPlan plan, ConcurrentRounds rounds, int operationsPerRound, int maxRounds)
        : base(plan)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxRounds, 4);
        _rounds = rounds;
        _operationsPerRound = operationsPerRound;
        _maxRounds = maxRounds;
    }

    protected override int MinSamples => Math.Min(Plan.MinSamples, MinRoundSamples);

    protected override bool CanTakeSample => _used < _maxRounds;

    protected override int OperationsConsumed => _used;

    protected override long SamplesLeftInPool => _maxRounds - _used;

    protected override void WarmUpOperations()
    {
        // Connections, JIT, caches; at most a quarter of the rounds allowed go to it.
        var warmUpStart = Stopwatch.GetTimestamp();
        var jit = new JitWatch();
        do
        {
            _rounds.RunRound();
            _used++;
        }
        while (_used < _maxRounds / 4 && !jit.IsWarm(warmUpStart, Plan.WarmUp, Plan.MaxWarmUp));
    }

    protected override Sample TakeSample()
    {
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var start = Stopwatch.GetTimestamp();
        _rounds.RunRound();
        var elapsed = Stopwatch.GetTimestamp() - start;
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        _used++;
        return new Sample(TicksToNs(elapsed) / _operationsPerRound, allocated, _operationsPerRound);
    }
}
