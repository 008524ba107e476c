using BLite.Tests.Linq;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// The LINQ layer's test model (tests/BLite.Tests/Linq/TestModel.cs, linked) with generated mappers,
/// so the differential queries of the LINQ tests run on both real providers.
/// </summary>
public partial class LinqContext : DocumentDbContext
{
    public LinqContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<int, Order> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<Order>().ToCollection("linq_orders")
            .HasIndex(o => o.Status)
            .HasIndex(o => o.Quantity);
    }
}
