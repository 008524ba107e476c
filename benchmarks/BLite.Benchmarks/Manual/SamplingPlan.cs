namespace BLite.Benchmarks.Manual;

/// <summary>How long and how often one engine's scenario is warmed up and sampled.</summary>
/// <param name="WarmUp">Shortest warm-up; it then lasts until the JIT has been quiet for a while.</param>
/// <param name="MaxWarmUp">Longest warm-up, for when the JIT never goes quiet (other threads compiling).</param>
/// <param name="Budget">Time each engine spends taking samples (its own turns only).</param>
/// <param name="Turn">
/// How long one engine samples before the next engine takes its turn: short against the seconds-long
/// load bursts of this shared VM, long against the cost of switching (a turn of fast operations
/// still holds hundreds of samples).
/// </param>
/// <param name="MinSamples">Samples taken even when they overrun the budget.</param>
/// <param name="MaxSamples">Samples after which an engine stops even within its budget.</param>
internal sealed record SamplingPlan(TimeSpan WarmUp, TimeSpan MaxWarmUp, TimeSpan Budget, TimeSpan Turn, int MinSamples, int MaxSamples);
