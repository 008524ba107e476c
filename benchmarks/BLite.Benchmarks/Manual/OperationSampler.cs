using System.Diagnostics;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Samples a single-threaded operation(index) for index = 0, 1, 2... (never reaching the pool's
/// size). Fast operations are timed in small batches so the timer's own cost stays under a few
/// percent; an untimed restore step, when given, runs after every operation and forces one
/// operation per sample.
/// </summary>
internal sealed class OperationSampler : Sampler
{
    private const double TargetSampleNs = 20_000;
    private const int MaxBatch = 256;

    private readonly int _maxOperations;
    private readonly Action<int> _operation;
    private readonly Action<int>? _untimedAfterEach;
    private int _index;
    private int _batch = 1;

    public OperationSampler(SamplingPlan plan, int maxOperations, Action<int> operation, Action<int>? untimedAfterEach)
        : base(plan)
    {
        _maxOperations = maxOperations;
        _operation = operation;
        _untimedAfterEach = untimedAfterEach;
    }

    protected override bool CanTakeSample => _index + _batch <= _maxOperations;

    protected override int OperationsConsumed => _index;

    protected override long SamplesLeftInPool => (_maxOperations - _index) / _batch;

    protected override void WarmUpOperations()
    {
        long warmUpTicks = 0;
        var warmUpStart = Stopwatch.GetTimestamp();
        var jit = new JitWatch();
        // At most a quarter of a finite pool goes to warm-up, so samples remain.
        while (_index < _maxOperations / 4 && (_index < 2 || !jit.IsWarm(warmUpStart, Plan.WarmUp, Plan.MaxWarmUp)))
        {
            var start = Stopwatch.GetTimestamp();
            _operation(_index);
            warmUpTicks += Stopwatch.GetTimestamp() - start;
            _untimedAfterEach?.Invoke(_index);
            _index++;
        }

        if (_untimedAfterEach is null && _index > 0)
        {
            var estimateNs = TicksToNs(warmUpTicks) / _index;
            _batch = (int)Math.Clamp(Math.Ceiling(TargetSampleNs / Math.Max(estimateNs, 1)), 1, MaxBatch);
        }
    }

    protected override Sample TakeSample()
    {
        var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        var start = Stopwatch.GetTimestamp();
        for (var i = 0; i < _batch; i++)
        {
            _operation(_index + i);
        }

        var elapsed = Stopwatch.GetTimestamp() - start;
        var allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
        _untimedAfterEach?.Invoke(_index);
        _index += _batch;
        return new Sample(TicksToNs(elapsed) / _batch, allocated, _batch);
    }
}
