using BLite.Bson;

namespace BLite.Benchmarks.Engines.BLiteEngine;

/// <summary>
/// The comparison's BLite database: one collection of orders keyed by ObjectId, with no
/// secondary index (the unindexed scan scenarios).
/// </summary>
public partial class BenchOrdersContext : DocumentDbContext
{
    public const string CollectionName = "orders";

    public BenchOrdersContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, Workload.CustomerOrder> Orders { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<Workload.CustomerOrder>().ToCollection(CollectionName);
}

/// <summary>
/// The same database with a secondary index on Status, for the indexed scan scenarios. The model
/// is read before a subclass constructor body runs, so the index is a second context type rather
/// than a constructor flag.
/// </summary>
public sealed partial class IndexedBenchOrdersContext : BenchOrdersContext
{
    public IndexedBenchOrdersContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    protected override void OnModelCreating(ModelBuilder model)
    {
        base.OnModelCreating(model);
        model.Entity<Workload.CustomerOrder>().HasIndex(o => o.Status);
    }
}
