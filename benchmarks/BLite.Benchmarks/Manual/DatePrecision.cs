using BLite.Benchmarks.Engines.LiteDb;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// LiteDB stores a DateTime as milliseconds since the epoch, so it hands back a value that lost
/// its sub-millisecond ticks; the agreement check rounds both sides the same way for it, and only for it.
/// </summary>
internal static class DatePrecision
{
    public static bool KeepsMillisecondsOnly(string engine) => engine == LiteDbOrderStore.EngineName;

    public static void TruncateToMilliseconds(CustomerOrder order)
    {
        order.PlacedAt = Truncate(order.PlacedAt);
        order.Shipping.EstimatedDelivery = Truncate(order.Shipping.EstimatedDelivery);
        foreach (var note in order.Notes)
        {
            note.CreatedAt = Truncate(note.CreatedAt);
        }
    }

    private static DateTime Truncate(DateTime value) =>
        new(value.Ticks - (value.Ticks % TimeSpan.TicksPerMillisecond), value.Kind);
}
