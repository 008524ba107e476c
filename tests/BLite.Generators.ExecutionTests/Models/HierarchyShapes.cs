using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests.Models;

/// <summary>A base with a private setter: the accessor must bind to the declaring base type.</summary>
public abstract class Entity
{
    public ObjectId Id { get; set; }
    public DateTime CreatedAt { get; private set; }
    public int Version { get; protected set; }

    public void Stamp(DateTime createdAt, int version)
    {
        CreatedAt = createdAt;
        Version = version;
    }
}

[BLiteDocument]
public sealed class Customer : Entity
{
    public string Name { get; set; } = "";
    public Address? Home { get; set; }
    public GeoPoint Location { get; set; }
    public GeoPoint? LastSeen { get; set; }
    public Reading Meter { get; set; }
}

public sealed class Address
{
    public string Street { get; set; } = "";
    public string City { get; set; } = "";
    public Country Country { get; set; } = new();
}

public sealed class Country
{
    public string Code { get; set; } = "";
    public string Name { get; set; } = "";
}

public struct GeoPoint
{
    public double Latitude { get; set; }
    public double Longitude { get; set; }
}

/// <summary>A struct whose state is a private field: its accessors take the struct by ref.</summary>
public struct Reading
{
    [BsonField("raw")]
    private int _raw;

    public Reading(int raw)
    {
        _raw = raw;
    }

    [BsonIgnore]
    public readonly int Raw => _raw;
}

/// <summary>A recursive type: a tree of categories.</summary>
[BLiteDocument]
public sealed class Category
{
    public int Id { get; set; }
    public string Name { get; set; } = "";
    public List<Category> Children { get; set; } = [];
}

/// <summary>Polymorphism through [BLiteDerivedType] on the base type.</summary>
[BLiteDerivedType(typeof(Dog), "dog")]
[BLiteDerivedType(typeof(Puppy), "puppy")]
[BLiteDerivedType(typeof(Cat), "cat")]
public abstract class Animal
{
    public string Name { get; set; } = "";
}

public class Dog : Animal
{
    public bool GoodBoy { get; set; }
}

public sealed class Puppy : Dog
{
    public int AgeInWeeks { get; set; }
}

public sealed class Cat : Animal
{
    public int Lives { get; set; }
}

[BLiteDocument]
public sealed class Shelter
{
    public string Id { get; set; } = "";
    public Animal? Mascot { get; set; }
    public List<Animal> Residents { get; set; } = [];
}

/// <summary>A collection whose document type is itself polymorphic and non-abstract.</summary>
[BLiteDerivedType(typeof(ExpressShipment), "express")]
[BLiteDocument]
public class Shipment
{
    public Guid Id { get; set; }
    public string Destination { get; set; } = "";
}

public sealed class ExpressShipment : Shipment
{
    public TimeSpan Promise { get; set; }
}
