using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace BLite.Core.Diagnostics;

/// <summary>
/// BLite's meter and activity source, both named <see cref="Name"/>. Names follow the OpenTelemetry
/// semantic conventions for databases where one applies (<c>db.system.name</c>, <c>db.namespace</c>,
/// <c>db.collection.name</c>, <c>db.operation.name</c>); engine-specific figures are under
/// <c>blite.*</c>. Per-operation figures are counted in plain fields and published by observable
/// instruments; per-commit histograms check <c>Enabled</c> first, so with no listener the cost is one field read.
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

    public static readonly Histogram<double> CommitDuration = Meter.CreateHistogram<double>("blite.commit.duration", "s", "Time from Commit() to the commit being durable and visible.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });

    public static readonly Histogram<double> FsyncDuration = Meter.CreateHistogram<double>("blite.wal.fsync.duration", "s", "Duration of one flush of the write-ahead log to stable storage.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });

    public static readonly Histogram<int> GroupCommitSize = Meter.CreateHistogram<int>("blite.commit.group.size", "{commit}", "Commits made durable by one write-ahead log flush (group commit).");

    public static readonly Histogram<double> CheckpointDuration = Meter.CreateHistogram<double>("blite.checkpoint.duration", "s", "Duration of a checkpoint (write-ahead log copied into the database file).");

    public static readonly Counter<long> Queries = Meter.CreateCounter<long>("blite.queries", "{query}", "Queries executed, per collection and plan kind (blite.query.plan: index or scan).");

    /// <summary>
    /// OpenTelemetry's <c>db.client.operation.duration</c>: one measurement per typed-collection
    /// operation (insert, update, upsert, delete, find_by_id, query, count), tagged with the
    /// collection and <c>db.operation.name</c>. A lazily enumerated query is measured when its
    /// enumeration completes or is disposed.
    /// </summary>
    public static readonly Histogram<double> OperationDuration = Meter.CreateHistogram<double>("db.client.operation.duration", "s", "Duration of a database operation on a collection.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });

    /// <summary>A start timestamp for <see cref="EndOperation"/>, or 0 (and no clock read) when nothing listens.</summary>
    public static long StartOperation() => OperationDuration.Enabled ? Stopwatch.GetTimestamp() : 0;

    /// <summary>Records the duration of an operation started by <see cref="StartOperation"/>; nothing when it was not timed.</summary>
    public static void EndOperation(long startedTimestamp, Collections.RawCollection collection, string operation)
    {
        if (startedTimestamp == 0)
        {
            return;
        }

        var elapsed = Stopwatch.GetElapsedTime(startedTimestamp).TotalSeconds;
        var tags = new TagList(collection.TelemetryTags) { { "db.operation.name", operation } };
        OperationDuration.Record(elapsed, tags);
    }

    static BLiteTelemetry()
    {
        // Figures counted on every operation are plain fields read when a listener collects, so the
        // hot path pays an increment, never an instrument call.
        Meter.CreateObservableCounter("blite.commits", static () => OfEngines(static e => e.TelemetryFigures().Commits), "{commit}", "Transactions committed to the write-ahead log.");
        Meter.CreateObservableCounter("blite.page_cache.hits", static () => OfEngines(static e => e.CacheHits), "{page}", "Page reads served from the page cache.");
        Meter.CreateObservableCounter("blite.page_cache.misses", static () => OfEngines(static e => e.CacheMisses), "{page}", "Page reads that went to the database file or the write-ahead log.");
        Meter.CreateObservableGauge("blite.page_cache.size", static () => OfEngines(static e => e.TelemetryFigures().CachedBytes), "By", "Bytes of page images held in the page cache.");
        Meter.CreateObservableGauge("blite.wal.size", static () => OfEngines(static e => e.TelemetryFigures().WalBytes), "By", "Bytes of the current write-ahead log generation.");
        Meter.CreateObservableCounter("blite.documents.read", static () => OfCollections(static c => c.DocumentsRead), "{document}", "Documents returned by lookups and queries, per collection.");
        Meter.CreateObservableCounter("blite.documents.written", static () => OfCollections(static c => c.DocumentsWritten), "{document}", "Documents inserted, updated or deleted, per collection.");
    }

    /// <summary>Runs the static constructor, which publishes the observable instruments; called on open.</summary>
    public static void EnsurePublished()
    {
    }

    private static IEnumerable<Measurement<long>> OfEngines(Func<Storage.StorageEngine, long> figure)
    {
        foreach (var engine in Storage.StorageEngine.OpenEngines())
        {
            yield return new Measurement<long>(figure(engine), engine.TelemetryTags);
        }
    }

    private static IEnumerable<Measurement<long>> OfCollections(Func<Collections.RawCollection, long> figure)
    {
        foreach (var database in DocumentDatabase.OpenDatabases())
        {
            foreach (var collection in database.CollectionHandles)
            {
                yield return new Measurement<long>(figure(collection), collection.TelemetryTags);
            }
        }
    }
}
