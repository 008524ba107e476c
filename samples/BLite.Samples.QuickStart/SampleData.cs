namespace BLite.Samples.QuickStart;

internal static class SampleData
{
    public static List<Order> Orders()
    {
        var placed = new DateTime(2026, 3, 1, 9, 0, 0, DateTimeKind.Utc);
        return
        [
            Create("A-1001", placed, "shipped", new("Ada Lovelace", "ada@example.com", "London"), ["gift"],
                new OrderLine("TEA-01", 2, 12.50m), new("MUG-02", 1, 9.90m)),
            Create("A-1002", placed.AddHours(3), "pending", new("Alan Turing", "alan@example.com", "Manchester"), [],
                new OrderLine("TEA-01", 1, 12.50m)),
            Create("A-1003", placed.AddDays(1), "shipped", new("Grace Hopper", "grace@example.com", "New York"), ["express"],
                new OrderLine("PEN-07", 10, 1.20m), new("PAD-03", 2, 4.75m)),
            Create("A-1004", placed.AddDays(2), "cancelled", new("Ada Lovelace", "ada@example.com", "London"), [],
                new OrderLine("MUG-02", 4, 9.90m)),
        ];
    }

    private static Order Create(string number, DateTime placedAt, string status, Customer customer, List<string> tags, params OrderLine[] lines) => new()
    {
        Number = number,
        PlacedAt = placedAt,
        Status = status,
        Customer = customer,
        Tags = tags,
        Lines = [.. lines],
        Total = lines.Sum(l => l.Quantity * l.UnitPrice),
    };
}
