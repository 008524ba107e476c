using BLite.Bson;

namespace BLite.Tests.Model;

public partial class ShopContext : DocumentDbContext
{
    public ShopContext(string path)
        : base(path)
    {
    }

    public ShopContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, CustomerOrder> Orders { get; set; } = null!;

    public DocumentCollection<Guid, GuidItem> GuidItems { get; set; } = null!;

    public DocumentCollection<int, IntItem> IntItems { get; set; } = null!;

    public DocumentCollection<long, LongItem> LongItems { get; set; } = null!;

    public DocumentCollection<string, Label> Labels { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<CustomerOrder>().ToCollection("orders")
            .HasIndex(o => o.Status)
            .HasIndex(o => o.Customer.Email, unique: true)
            .HasIndex(o => new { o.Status, o.PlacedAt })
            .HasIndex(o => o.Lines.Select(l => l.Sku));
    }
}
