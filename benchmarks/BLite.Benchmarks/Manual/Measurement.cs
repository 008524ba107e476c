namespace BLite.Benchmarks.Manual;

/// <param name="MedianNsPerOp">Median over samples of (sample time / operations in the sample).</param>
/// <param name="AllocatedBytesPerOp">Managed bytes allocated during timed samples, per operation.</param>
/// <param name="Operations">Operations timed.</param>
/// <param name="OperationsConsumed">Operation indexes used, warm-up included (how much of a pool was spent).</param>
/// <param name="Turns">Turns the engine's samples were taken in, alternating with the other engines'.</param>
/// <param name="Elapsed">Time the engine spent in its warm-up and its own turns.</param>
/// <param name="ThreadCpuNsPerOp">
/// The measuring thread's CPU time over the samples, per operation (<see cref="ThreadCpuClock"/>; a
/// mean, untimed steps inside a sample included); null where the clock cannot be read.
/// </param>
internal readonly record struct Measurement(double MedianNsPerOp, double AllocatedBytesPerOp, long Operations, int OperationsConsumed, int Turns, TimeSpan Elapsed,
    double? ThreadCpuNsPerOp = null);
