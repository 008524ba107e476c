// The workload's id type in one place: if CustomerOrder.Id changes type (an ObjectId, say),
// only this alias changes, and peers that store text keep working through OrderKeys.ToText.
global using OrderId = string;

namespace BLite.Benchmarks.Engines;

/// <summary>The string form of an order id, for peers that key their tables by text.</summary>
public static class OrderKeys
{
    // string.ToString() returns the same instance, so a string id costs nothing here;
    // an ObjectId id becomes its 24-hex-digit text.
    public static string ToText(OrderId id) => id.ToString();
}
