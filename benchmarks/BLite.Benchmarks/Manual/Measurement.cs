namespace BLite.Benchmarks.Manual;

/// <param name="MedianNsPerOp">Median over samples of (sample time / operations in the sample).</param>
/// <param name="AllocatedBytesPerOp">Managed bytes allocated during timed samples, per operation.</param>
/// <param name="Operations">Operations timed.</param>
/// <param name="OperationsConsumed">Operation indexes used, warm-up included (how much of a pool was spent).</param>
/// <param name="Elapsed">Wall time of warm-up and measurement together.</param>
internal readonly record struct Measurement(double MedianNsPerOp, double AllocatedBytesPerOp, long Operations, int OperationsConsumed, TimeSpan Elapsed);
