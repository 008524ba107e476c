using BLite.Bson;

namespace BLite.Benchmarks.Workload;

/// <summary>
/// Seeded, so every run and every engine sees the same documents. Ids are ObjectIds whose text
/// form (<see cref="ObjectIdText"/>) peers without an ObjectId type store as a string.
/// </summary>
public sealed class OrderGenerator
{
    public static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    private static readonly string[] FirstNames = ["Ada", "Grace", "Linus", "Barbara", "Edsger", "Donald", "Frances", "Ken"];
    private static readonly string[] LastNames = ["Lovelace", "Hopper", "Torvalds", "Liskov", "Dijkstra", "Knuth", "Allen", "Thompson"];
    private static readonly string[] Cities = ["Lisbon", "Oslo", "Turin", "Kraków", "Ghent", "Porto", "Lyon", "Leeds"];
    private static readonly string[] Countries = ["PT", "NO", "IT", "PL", "BE", "FR", "GB", "DE"];
    private static readonly string[] Carriers = ["DHL", "UPS", "FedEx", "PostNL"];
    private static readonly string[] Products = ["Mechanical keyboard", "USB-C hub", "27-inch monitor", "Laptop stand", "Noise-cancelling headphones", "Webcam", "Desk lamp", "Ergonomic mouse"];
    private static readonly string[] TagWords = ["gift", "express", "fragile", "bulk", "promo", "returning", "vip", "eco"];

    private static readonly DateTime Epoch = new(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private readonly Random _random;
    private int _sequence;

    public OrderGenerator(int seed = 42) => _random = new Random(seed);

    public List<CustomerOrder> Generate(int count)
    {
        var orders = new List<CustomerOrder>(count);
        for (var i = 0; i < count; i++)
        {
            orders.Add(Next());
        }

        return orders;
    }

    public CustomerOrder Next()
    {
        var n = _sequence++;
        var placedAt = Epoch.AddSeconds(_random.Next(0, 300 * 24 * 3600)).AddTicks(_random.Next(0, 10_000_000));
        var lines = new List<OrderLine>(5);
        for (var i = 0; i < 5; i++)
        {
            var quantity = _random.Next(1, 6);
            var unitPrice = Math.Round((decimal)_random.Next(500, 50_000) / 100m, 2);
            lines.Add(new OrderLine
            {
                Sku = $"SKU-{_random.Next(10_000, 99_999)}",
                ProductName = Pick(Products),
                Quantity = quantity,
                UnitPrice = unitPrice,
                Subtotal = unitPrice * quantity,
                Tags = [Pick(TagWords), Pick(TagWords), Pick(TagWords)],
            });
        }

        var subtotal = lines.Sum(l => l.Subtotal);
        var tax = Math.Round(subtotal * 0.21m, 2);
        var name = $"{Pick(FirstNames)} {Pick(LastNames)}";
        return new CustomerOrder
        {
            Id = ObjectIdFor(n),
            OrderNumber = $"ORD-{n + 100_000}",
            PlacedAt = placedAt,
            Status = Statuses[n % Statuses.Length],
            Currency = "EUR",
            Subtotal = subtotal,
            TaxAmount = tax,
            Total = subtotal + tax,
            Customer = new CustomerContact
            {
                FullName = name,
                Email = $"{name.Replace(' ', '.').ToLowerInvariant()}.{n}@example.com",
                Phone = $"+351 9{_random.Next(10_000_000, 99_999_999)}",
                BillingAddress = Address(),
            },
            Shipping = new ShippingInfo
            {
                Carrier = Pick(Carriers),
                TrackingNumber = $"TRK{_random.NextInt64(1_000_000_000, 9_999_999_999)}",
                EstimatedDelivery = placedAt.AddDays(_random.Next(1, 10)),
                Destination = Address(),
            },
            Lines = lines,
            Notes =
            [
                new OrderNote { Author = "system", Text = "Order received and payment authorised.", CreatedAt = placedAt },
                new OrderNote { Author = Pick(FirstNames), Text = "Customer asked for delivery after 6 pm, leave with a neighbour otherwise.", CreatedAt = placedAt.AddHours(2) },
            ],
            Tags = [Pick(TagWords), Pick(TagWords)],
        };
    }

    /// <summary>A 24-hex-digit id whose first 4 bytes follow placement order, like an ObjectId's timestamp.</summary>
    public static string ObjectIdText(int sequence) => $"{0x65000000 + sequence:x8}{0xB17E:x4}{sequence:x12}";

    /// <summary>The ObjectId whose text form is <see cref="ObjectIdText"/>.</summary>
    public static ObjectId ObjectIdFor(int sequence) => ObjectId.Parse(ObjectIdText(sequence));

    private PostalAddress Address()
    {
        var city = _random.Next(Cities.Length);
        return new PostalAddress
        {
            Street = $"{_random.Next(1, 400)} {Pick(LastNames)} Street",
            City = Cities[city],
            ZipCode = $"{_random.Next(1000, 9999)}-{_random.Next(100, 999)}",
            Country = Countries[city],
        };
    }

    private string Pick(string[] values) => values[_random.Next(values.Length)];
}
