using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace BLite.Core.Diagnostics;

/// <summary>
/// BLite's meter and activity source, both named <see cref="Name"/>. Names follow the OpenTelemetry
/// semantic conventions for databases where one applies (<c>db.system.name</c>, <c>db.namespace</c>,
/// <c>db.collection.name</c>, <c>db.operation.name</c>); engine-specific figures are under
/// <c>blite.*</c>. Every recording site checks the instrument's <c>Enabled</c> first, so with no
/// listener the cost is one field read.
/// </summary>
internal static class BLiteTelemetry
{
    /// <summary>The name of the <see cref="Meter"/> and the <see cref="ActivitySource"/>.</summary>
    public const string Name = "BLite";

    public const string SystemName = "blite";

    // Declared before the histograms that use it: static fields initialise in textual order.
    private static readonly double[] LatencyBuckets = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

    public static readonly Meter Meter = new(Name, typeof(BLiteTelemetry).Assembly.GetName().Version?.ToString());

    public static readonly ActivitySource ActivitySource = new(Name, typeof(BLiteTelemetry).Assembly.GetName().Version?.ToString());

    public static readonly Counter<long> Commits = Meter.CreateCounter<long>("blite.commits", "{commit}", "Transactions committed to the write-ahead log.");

    public static readonly Histogram<double> CommitDuration = Meter.CreateHistogram<double>("blite.commit.duration", "s", "Time from Commit() to the commit being durable and visible.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });

    public static readonly Histogram<double> FsyncDuration = Meter.CreateHistogram<double>("blite.wal.fsync.duration", "s", "Duration of one flush of the write-ahead log to stable storage.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });

    public static readonly Histogram<int> GroupCommitSize = Meter.CreateHistogram<int>("blite.commit.group.size", "{commit}", "Commits made durable by one write-ahead log flush (group commit).");

    public static readonly Histogram<double> CheckpointDuration = Meter.CreateHistogram<double>("blite.checkpoint.duration", "s", "Duration of a checkpoint (write-ahead log copied into the database file).");

    public static readonly Counter<long> PageCacheHits = Meter.CreateCounter<long>("blite.page_cache.hits", "{page}", "Page reads served from the page cache.");

    public static readonly Counter<long> PageCacheMisses = Meter.CreateCounter<long>("blite.page_cache.misses", "{page}", "Page reads that went to the database file or the write-ahead log.");

    public static readonly Counter<long> DocumentsRead = Meter.CreateCounter<long>("blite.documents.read", "{document}", "Documents returned by lookups and queries, per collection.");

    public static readonly Counter<long> DocumentsWritten = Meter.CreateCounter<long>("blite.documents.written", "{document}", "Documents inserted, updated or deleted, per collection.");

    public static readonly Counter<long> Queries = Meter.CreateCounter<long>("blite.queries", "{query}", "Queries executed, per collection and plan kind (blite.query.plan: index or scan).");

    static BLiteTelemetry()
    {
        Meter.CreateObservableGauge("blite.page_cache.size", static () => Observe(static s => s.CachedBytes), "By", "Bytes of page images held in the page cache.");
        Meter.CreateObservableGauge("blite.wal.size", static () => Observe(static s => s.WalBytes), "By", "Bytes of the current write-ahead log generation.");
    }

    private static IEnumerable<Measurement<long>> Observe(Func<StorageStatistics, long> figure)
    {
        foreach (var engine in Storage.StorageEngine.OpenEngines())
        {
            yield return new Measurement<long>(figure(engine.GetStatistics()), engine.TelemetryTags);
        }
    }
}
