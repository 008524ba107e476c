// The workload's id type in one place: if CustomerOrder.Id changes type, only this alias changes,
// and peers that store text keep working through OrderKeys.ToText.
global using OrderId = BLite.ObjectId;

namespace BLite.Benchmarks.Engines;

/// <summary>The string form of an order id, for peers that key their tables by text.</summary>
public static class OrderKeys
{
    // An ObjectId becomes its 24 lowercase hex digits, the form DESIGN.md gives SQLite and LiteDB
    // (had the id been a string, ToString would return the same instance at no cost).
    public static string ToText(OrderId id) => id.ToString();
}
