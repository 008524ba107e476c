namespace BLite.Samples.QuickStart;

// Plain classes and records: no base type, no attributes. The generator maps them at build time.

public sealed class Order
{
    public ObjectId Id { get; set; }                 // left empty: the database assigns one on insert
    public required string Number { get; set; }
    public DateTime PlacedAt { get; set; }
    public string Status { get; set; } = "pending";
    public required Customer Customer { get; set; }  // stored as a nested document
    public List<OrderLine> Lines { get; set; } = []; // stored as an array of documents
    public List<string> Tags { get; set; } = [];
    public decimal Total { get; set; }               // decimals are stored exactly
}

public sealed record Customer(string Name, string Email, string City);

public sealed record OrderLine(string Sku, int Quantity, decimal UnitPrice);
