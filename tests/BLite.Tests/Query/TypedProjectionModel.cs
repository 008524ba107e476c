using BLite.Bson;

namespace BLite.Tests.Query;

public enum ParcelKind
{
    Letter,
    Box,
}

public sealed class Parcel
{
    public ObjectId Id { get; set; }

    public string Label { get; set; } = "";

    public string? Note { get; set; }

    public int? Weight { get; set; }

    public int Count { get; set; }

    public decimal Price { get; set; }

    public ParcelKind Kind { get; set; }

    public Destination? Destination { get; set; }
}

public sealed class Destination
{
    public string City { get; set; } = "";

    public string? Zip { get; set; }
}

/// <summary>An older shape of the same collection: its documents lack Note, Weight, Count, Kind and Destination.</summary>
public sealed class ParcelV1
{
    public ObjectId Id { get; set; }

    public string Label { get; set; } = "";

    public decimal Price { get; set; }
}

public sealed record ParcelCard(string Label, decimal Price);

public sealed record ParcelNotes(string? Note, int? Weight, string? City, string? Zip);

public readonly record struct PriceTag(ObjectId Id, decimal Price, ParcelKind Kind);

public sealed record CountCard(int Count);

/// <summary>Members in the opposite order to the stored fields, one of them read twice.</summary>
public sealed record BackwardsCard(ParcelKind Kind, decimal Price, string Label, string Again);

/// <summary>Constructor arguments and initialized members together.</summary>
public sealed class ParcelSummary(ObjectId id, string label)
{
    public ObjectId Id { get; } = id;

    public string Label { get; } = label;

    public string? City { get; set; }

    public int? Weight { get; init; }

    public decimal Price;

    public override bool Equals(object? obj) =>
        obj is ParcelSummary other && Id == other.Id && Label == other.Label && City == other.City && Weight == other.Weight && Price == other.Price;

    public override int GetHashCode() => HashCode.Combine(Id, Label, City, Weight, Price);
}

public partial class ParcelContext : DocumentDbContext
{
    public ParcelContext(string path)
        : base(path)
    {
    }

    public ParcelContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Parcel> Parcels { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) => model.Entity<Parcel>().ToCollection("parcels");
}

public partial class ParcelV1Context : DocumentDbContext
{
    public ParcelV1Context(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, ParcelV1> Parcels { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) => model.Entity<ParcelV1>().ToCollection("parcels");
}
