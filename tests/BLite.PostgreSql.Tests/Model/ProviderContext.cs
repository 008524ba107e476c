using BLite.Bson;

namespace BLite.PostgreSql.Tests.Model;

/// <summary>One context class for both providers: nothing in it knows where it runs.</summary>
public partial class ProviderContext : DocumentDbContext
{
    public ProviderContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!;

    public DocumentCollection<int, Counter> Counters { get; set; } = null!;

    public DocumentCollection<string, Probe> Probes { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Order>().ToCollection("orders")
            .HasIndex(o => o.Status)
            .HasIndex(o => o.Customer.Email, unique: true)
            .HasIndex(o => o.Lines.Select(l => l.Sku));
    }
}
