using System.Text.Json.Serialization;

namespace BLite.Benchmarks.Workload;

/// <summary>
/// The System.Text.Json peer, source-generated as its own experts would set it up: no reflection,
/// default (compact) output.
/// </summary>
[JsonSerializable(typeof(CustomerOrder))]
[JsonSerializable(typeof(List<CustomerOrder>))]
internal sealed partial class OrderJsonContext : JsonSerializerContext
{
}
