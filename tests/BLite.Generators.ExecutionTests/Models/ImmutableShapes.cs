using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests.Models;

/// <summary>Init-only and required members, set through an object initializer.</summary>
[BLiteDocument]
public sealed class Account
{
    public required Guid Id { get; init; }
    public required string Owner { get; init; }
    public decimal Balance { get; init; }
    public string? Note { get; init; }
}

/// <summary>A positional record with an embedded record struct and readonly record struct.</summary>
[BLiteDocument("books")]
public sealed record Book(ObjectId Id, string Title, int Pages, Dimensions Size, Money Price);

public record struct Dimensions(double Width, double Height);

public readonly record struct Money(decimal Amount, string Currency);

/// <summary>Get-only properties bound to constructor parameters by name (case-insensitive) and type.</summary>
[BLiteDocument]
public sealed class Measurement
{
    public Measurement(long id, string sensor, double celsius, DateTimeOffset takenAt)
    {
        Id = id;
        Sensor = sensor;
        Celsius = celsius;
        TakenAt = takenAt;
    }

    public long Id { get; }
    public string Sensor { get; }
    public double Celsius { get; }
    public DateTimeOffset TakenAt { get; }
    public string? Comment { get; set; }
}

/// <summary>Private setters, a get-only auto-property and opted-in private members, reached via [UnsafeAccessor].</summary>
[BLiteDocument]
public sealed class Vault
{
    [BsonField]
    private int _openings;

    public Vault()
    {
        Label = "";
        Owner = "";
    }

    public Vault(string owner, int openings, string secret)
    {
        Owner = owner;
        _openings = openings;
        Secret = secret;
        Label = owner + "'s vault";
    }

    public int Id { get; private set; }
    public string Label { get; private set; }
    public string Owner { get; }

    [BsonField("secret")]
    private string? Secret { get; set; }

    [BsonIgnore]
    public int Openings => _openings;
    public string? RevealSecret() => Secret;

    public void AssignId(int id) => Id = id;
}
