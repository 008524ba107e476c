namespace BLite.Samples.QuickStart;

/// <summary>
/// The database: one typed collection and its indexes. The class is <c>partial</c> because the
/// BLite source generator adds the code that creates the collection with a compile-time serializer.
/// </summary>
public partial class ShopContext : DocumentDbContext
{
    public ShopContext(string path) : base(path) { }

    public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Order>().ToCollection("orders")
             .HasIndex(o => o.Number, unique: true)
             .HasIndex(o => o.Status)
             .HasIndex(o => o.Customer.Email);
    }
}
