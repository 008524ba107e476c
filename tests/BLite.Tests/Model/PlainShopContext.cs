using BLite.Bson;

namespace BLite.Tests.Model;

/// <summary>The same orders collection as <see cref="ShopContext"/>, without secondary indexes.</summary>
public partial class PlainShopContext : DocumentDbContext
{
    public PlainShopContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, CustomerOrder> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) => model.Entity<CustomerOrder>().ToCollection("orders");
}
