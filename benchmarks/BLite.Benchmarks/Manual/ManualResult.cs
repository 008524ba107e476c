namespace BLite.Benchmarks.Manual;

/// <summary>One row of the manual run: one engine on one scenario at one durability level.</summary>
/// <param name="Durability">"flush", "buffered", "memory", or "none" for serialization rows.</param>
public sealed record ManualResult(string Scenario, string Engine, string Durability, double MedianNsPerOp, double AllocatedBytesPerOp);
