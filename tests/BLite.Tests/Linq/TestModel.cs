using System.Reflection;
using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.Linq;

public enum OrderKind
{
    Retail,
    Wholesale,
    Internal,
}

public sealed class Order
{
    public int Id { get; set; }

    public string Status { get; set; } = "";

    public OrderKind Kind { get; set; }

    public decimal Total { get; set; }

    public int Quantity { get; set; }

    public double Score { get; set; }

    public long Big { get; set; }

    public bool Paid { get; set; }

    public int? Discount { get; set; }

    public string? Note { get; set; }

    public DateTime PlacedAt { get; set; }

    public Customer Customer { get; set; } = new();

    public List<Line> Lines { get; set; } = [];

    public List<string> Tags { get; set; } = [];

    /// <summary>An array of numbers, for aggregates without a selector (<c>o.Ratings.Sum()</c>).</summary>
    public List<int> Ratings { get; set; } = [];

    /// <summary>A nullable record struct, stored as null or an embedded document.</summary>
    public GeoPoint? Location { get; set; }

    /// <summary>Not stored: the resolver refuses it (and the generated mapper ignores it).</summary>
    [BLite.Bson.Mapping.BsonIgnore]
    public string Computed => Status + Quantity;
}

public record struct GeoPoint(int X, int Y);

public sealed class Customer
{
    public string Name { get; set; } = "";

    /// <summary>Stored as "mail" (a rename, like [BsonField("mail")]).</summary>
    public string Email { get; set; } = "";
}

public sealed class Line
{
    public string Sku { get; set; } = "";

    public int Qty { get; set; }

    public decimal Price { get; set; }
}

/// <summary>The conventions the generated mappers follow: camelCase names, Id → _id, a rename.</summary>
internal sealed class TestFieldPaths : IFieldPathResolver
{
    public bool TryGetFieldName(Type declaringType, MemberInfo member, out string fieldName)
    {
        fieldName = (declaringType.Name, member.Name) switch
        {
            (_, nameof(Order.Computed)) => "",
            (nameof(Order), nameof(Order.Id)) => "_id",
            (nameof(Customer), nameof(Customer.Email)) => "mail",
            _ => char.ToLowerInvariant(member.Name[0]) + member.Name[1..],
        };
        return fieldName.Length > 0;
    }
}

/// <summary>A hand-written mapper standing in for the generated one.</summary>
internal static class OrderMapper
{
    public static BsonDocument ToDocument(Order o) => new()
    {
        { "_id", o.Id },
        { "status", o.Status },
        { "kind", (int)o.Kind },
        { "total", o.Total },
        { "quantity", o.Quantity },
        { "score", o.Score },
        { "big", o.Big },
        { "paid", o.Paid },
        { "discount", o.Discount is { } d ? d : BsonValue.Null },
        { "note", o.Note },
        { "placedAt", o.PlacedAt },
        { "customer", new BsonDocument { { "name", o.Customer.Name }, { "mail", o.Customer.Email } } },
        { "lines", new BsonArray(o.Lines.Select(l => (BsonValue)new BsonDocument { { "sku", l.Sku }, { "qty", l.Qty }, { "price", l.Price } })) },
        { "tags", new BsonArray(o.Tags.Select(t => (BsonValue)t)) },
        { "ratings", new BsonArray(o.Ratings.Select(r => (BsonValue)r)) },
        { "location", o.Location is { } p ? new BsonDocument { { "x", p.X }, { "y", p.Y } } : BsonValue.Null },
    };

    public static Order FromDocument(BsonDocument d) => new()
    {
        Id = d["_id"].AsInt32,
        Status = d["status"].AsString,
        Kind = (OrderKind)d["kind"].AsInt32,
        Total = d["total"].AsDecimal,
        Quantity = d["quantity"].AsInt32,
        Score = d["score"].AsDouble,
        Big = d["big"].AsInt64,
        Paid = d["paid"].AsBoolean,
        Discount = d["discount"].IsNull ? null : d["discount"].AsInt32,
        Note = d["note"].IsNull ? null : d["note"].AsString,
        PlacedAt = d["placedAt"].AsDateTime,
        Customer = new Customer { Name = d["customer"].AsDocument["name"].AsString, Email = d["customer"].AsDocument["mail"].AsString },
        Lines = d["lines"].AsArray.Select(l => new Line
        {
            Sku = l.AsDocument["sku"].AsString,
            Qty = l.AsDocument["qty"].AsInt32,
            Price = l.AsDocument["price"].AsDecimal,
        }).ToList(),
        Tags = d["tags"].AsArray.Select(t => t.AsString).ToList(),
        Ratings = d["ratings"].AsArray.Select(r => r.AsInt32).ToList(),
        Location = d["location"].IsNull ? null : new GeoPoint(d["location"].AsDocument["x"].AsInt32, d["location"].AsDocument["y"].AsInt32),
    };
}

internal static class TestData
{
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];
    private static readonly string[] Names = ["ann", "bob", "cara", "dan", "eve", "anna", "bo"];
    private static readonly string[] Tags = ["red", "blue", "green", "gift"];
    private static readonly string[] Skus = ["sku", "skx", "abc", "abd"];

    public static List<Order> Orders(int seed, int count)
    {
        var random = new Random(seed);
        var start = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        return Enumerable.Range(1, count).Select(id => new Order
        {
            Id = id,
            Status = Statuses[random.Next(Statuses.Length)],
            Kind = (OrderKind)random.Next(3),
            Total = random.Next(0, 500) + (random.Next(4) * 0.25m),
            Quantity = random.Next(0, 12),
            Score = Math.Round(random.NextDouble() * 10, 2),
            Big = random.Next(2) == 0 ? random.Next(100) : 10_000_000_000L + random.Next(100),
            Paid = random.Next(2) == 0,
            Discount = random.Next(3) == 0 ? null : random.Next(0, 30),
            Note = random.Next(3) == 0 ? null : Names[random.Next(Names.Length)],
            PlacedAt = start.AddHours(random.Next(0, 2000)),
            Customer = new Customer { Name = Names[random.Next(Names.Length)], Email = Names[random.Next(Names.Length)] + "@x.io" },
            Lines = Enumerable.Range(0, random.Next(0, 4)).Select(_ => new Line
            {
                Sku = Skus[random.Next(Skus.Length)],
                Qty = random.Next(1, 6),
                Price = random.Next(1, 50),
            }).ToList(),
            Tags = Enumerable.Range(0, random.Next(0, 3)).Select(_ => Tags[random.Next(Tags.Length)]).ToList(),
            Location = id % 3 == 0 ? null : new GeoPoint(id % 7, id % 5),

            // Derived from the id, so the random sequence (and every other value) is what it was before the member existed.
            Ratings = Enumerable.Range(0, id % 4).Select(k => ((id * 7) + k) % 11 - 3).ToList(),
        }).ToList();
    }
}
