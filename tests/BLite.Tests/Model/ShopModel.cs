using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Tests.Model;

public sealed class CustomerOrder
{
    public ObjectId Id { get; set; }

    public string OrderNumber { get; set; } = "";

    public DateTime PlacedAt { get; set; }

    public string Status { get; set; } = "";

    public decimal Total { get; set; }

    public CustomerContact Customer { get; set; } = new();

    public List<OrderLine> Lines { get; set; } = [];

    public List<string> Tags { get; set; } = [];
}

public sealed class CustomerContact
{
    public string FullName { get; set; } = "";

    [BsonField("email")]
    public string Email { get; set; } = "";
}

public sealed class OrderLine
{
    public string Sku { get; set; } = "";

    public int Quantity { get; set; }

    public decimal UnitPrice { get; set; }
}

public sealed class GuidItem
{
    public Guid Id { get; set; }

    public string Name { get; set; } = "";
}

public sealed class IntItem
{
    public int Id { get; set; }

    public string Name { get; set; } = "";
}

public sealed class LongItem
{
    public long Id { get; set; }

    public string Name { get; set; } = "";
}

public sealed class Label
{
    public string Id { get; set; } = "";

    public string Text { get; set; } = "";
}
