using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.PostgreSql.Tests.Model;

public sealed class Order
{
    public ObjectId Id { get; set; }

    public string Number { get; set; } = "";

    public string Status { get; set; } = "";

    public decimal Total { get; set; }

    public DateTime PlacedAt { get; set; }

    public Contact Customer { get; set; } = new();

    public List<Line> Lines { get; set; } = [];

    public List<string> Tags { get; set; } = [];

    public string? Note { get; set; }

    public int? Priority { get; set; }

    public double Weight { get; set; }

    public long Sequence { get; set; }
}

public sealed class Contact
{
    public string Name { get; set; } = "";

    public string Email { get; set; } = "";
}

public sealed class Line
{
    public string Sku { get; set; } = "";

    public int Quantity { get; set; }
}

public sealed class Counter
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public long Value { get; set; }
}

/// <summary>Every value shape the embedded engine stores exactly, for the fidelity tests.</summary>
public sealed class Probe
{
    public string Id { get; set; } = "";

    public DateTime Utc { get; set; }

    public DateTime Local { get; set; }

    public DateTime Unspecified { get; set; }

    public DateTimeOffset Offset { get; set; }

    public decimal Money { get; set; }

    public decimal NegativeZeroMoney { get; set; }

    public Guid Key { get; set; }

    public ulong Huge { get; set; }

    public long Big { get; set; }

    public int Small { get; set; }

    public double NegativeZero { get; set; }

    public double NotANumber { get; set; }

    public double Infinite { get; set; }

    public double Tiny { get; set; }

    public double Large { get; set; }

    public double Whole { get; set; }

    public float Single { get; set; }

    public TimeSpan Span { get; set; }

    public DateOnly Day { get; set; }

    public TimeOnly Time { get; set; }

    public string Text { get; set; } = "";

    public byte[] Bytes { get; set; } = [];

    public ObjectId Reference { get; set; }

    public bool Flag { get; set; }

    public string? Missing { get; set; }

    [BsonField("$dollar")]
    public string Dollar { get; set; } = "";

    public Dictionary<string, int> Counts { get; set; } = [];

    public Dictionary<string, List<decimal>> Prices { get; set; } = [];

    public List<List<int>> Grid { get; set; } = [];

    public Animal? Pet { get; set; }

    public List<Animal> Zoo { get; set; } = [];
}

[BLiteDerivedType(typeof(Dog), "dog")]
[BLiteDerivedType(typeof(Cat), "cat")]
public abstract class Animal
{
    public string Name { get; set; } = "";
}

public sealed class Dog : Animal
{
    public bool GoodBoy { get; set; }
}

public sealed class Cat : Animal
{
    public int Lives { get; set; }
}
