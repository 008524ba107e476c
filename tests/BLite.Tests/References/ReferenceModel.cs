using BLite.Bson;

namespace BLite.Tests.References;

public sealed class Client
{
    public ObjectId Id { get; set; }

    public string Name { get; set; } = "";

    public string City { get; set; } = "";
}

public sealed class Purchase
{
    public ObjectId Id { get; set; }

    public string Number { get; set; } = "";

    public decimal Total { get; set; }

    public DocumentRef<ObjectId, Client>? Client { get; set; }
}

public sealed class Member
{
    public int Id { get; set; }

    public string Name { get; set; } = "";

    public List<DocumentRef<int, Member>> Follows { get; set; } = [];
}

/// <summary>Points at clients with the wrong id type: Include must refuse it by name.</summary>
public sealed class MistypedPurchase
{
    public ObjectId Id { get; set; }

    public DocumentRef<int, Client>? Client { get; set; }
}

public partial class ReferenceContext : DocumentDbContext
{
    public ReferenceContext(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, Client> Clients { get; set; } = null!;

    public DocumentCollection<ObjectId, Purchase> Purchases { get; set; } = null!;

    public DocumentCollection<int, Member> Members { get; set; } = null!;

    public DocumentCollection<ObjectId, MistypedPurchase> Mistyped { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Client>().HasIndex(c => c.City);
        model.Entity<Purchase>().HasIndex(p => p.Client);
        model.Entity<Member>().HasIndex(m => m.Follows);
    }
}
