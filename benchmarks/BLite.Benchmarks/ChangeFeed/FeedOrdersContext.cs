using BLite.Bson;

namespace BLite.Benchmarks.ChangeFeed;

/// <summary>The comparison's orders collection with a change feed (its peer without one is <see cref="Engines.BLiteEngine.BenchOrdersContext"/>).</summary>
public sealed partial class FeedOrdersContext : DocumentDbContext
{
    public FeedOrdersContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Workload.CustomerOrder> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<Workload.CustomerOrder>().ToCollection("orders").HasChangeFeed();
}
