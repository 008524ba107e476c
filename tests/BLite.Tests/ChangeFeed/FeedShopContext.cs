using BLite.Bson;
using BLite.Tests.Model;

namespace BLite.Tests.ChangeFeed;

/// <summary>Orders with a change feed and before-images, int items with a plain feed, labels without one.</summary>
public partial class FeedShopContext : DocumentDbContext
{
    public FeedShopContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, CustomerOrder> Orders { get; set; } = null!;

    public DocumentCollection<int, IntItem> IntItems { get; set; } = null!;

    public DocumentCollection<string, Label> Labels { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<CustomerOrder>().ToCollection("orders").HasIndex(o => o.Status).HasChangeFeed(includeBeforeImage: true);
        model.Entity<IntItem>().HasChangeFeed();
    }
}
