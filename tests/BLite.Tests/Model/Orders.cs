using BLite.Bson;

namespace BLite.Tests.Model;

/// <summary>Seeded sample orders: statuses spread evenly, unique emails, a few lines each.</summary>
public static class Orders
{
    public static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    public static CustomerOrder Create(int number, ObjectId id = default) => new()
    {
        Id = id,
        OrderNumber = "ORD-" + number.ToString("D5"),
        PlacedAt = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(number * 7),
        Status = Statuses[number % Statuses.Length],
        Total = 10.5m * number,
        Customer = new CustomerContact { FullName = "Customer " + number, Email = $"c{number}@example.com" },
        Lines =
        [
            new OrderLine { Sku = "SKU-" + (number % 10), Quantity = 1 + number % 3, UnitPrice = 2.25m },
            new OrderLine { Sku = "SKU-X" + (number % 4), Quantity = 2, UnitPrice = 1m },
        ],
        Tags = number % 2 == 0 ? ["even"] : ["odd", "prime?"],
    };

    public static List<CustomerOrder> Many(int count) => Enumerable.Range(1, count).Select(n => Create(n)).ToList();
}
