using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using BLite.Tests.Model;

namespace BLite.Tests.Diagnostics;

/// <summary>
/// Collects BLite's instruments with a <see cref="MeterListener"/>. Tests run in parallel, so
/// every assertion looks only at measurements tagged with this test's database path.
/// </summary>
public sealed class MetricsTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly MeterListener _listener = new();
    private readonly ConcurrentQueue<Recorded> _measurements = new();
    private readonly string _path;

    public MetricsTests()
    {
        _path = Path.GetFullPath(_directory.File());
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "BLite")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<int>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.Start();
    }

    public void Dispose()
    {
        _listener.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Commits_fsyncs_cache_documents_and_queries_are_measured_with_database_tags()
    {
        var orders = Orders.Many(30);
        using (var db = new ShopContext(_path))
        {
            // Creating the file and its schema commits too; count from here.
            _listener.RecordObservableInstruments();
            var commitsAtOpen = Latest("blite.commits");
            var timedAtOpen = Of("blite.commit.duration").Count;
            var groupedAtOpen = Sum("blite.commit.group.size");
            db.Orders.InsertMany(orders);
            db.Orders.Insert(Orders.Create(100));
            Assert.NotNull(db.Orders.FindById(orders[3].Id));
            var shipped = db.Orders.Query().Where(o => o.Status == "shipped").ToList();
            var all = db.Orders.Find(o => o.Total > 0m).ToList();
            db.Database.Checkpoint();
            _listener.RecordObservableInstruments();

            Assert.Equal(commitsAtOpen + 2, Latest("blite.commits"));
            Assert.Equal(timedAtOpen + 2, Of("blite.commit.duration").Count);
            Assert.All(Of("blite.commit.duration"), m => Assert.InRange(m.Value, 0, 60));
            Assert.NotEmpty(Of("blite.wal.fsync.duration"));
            Assert.Equal(groupedAtOpen + 2, Sum("blite.commit.group.size"));
            Assert.True(Latest("blite.page_cache.hits") > 0);
            Assert.NotEmpty(Of("blite.checkpoint.duration"));
            Assert.Equal(31, Latest("blite.documents.written", "orders"));
            Assert.Equal(1 + shipped.Count + all.Count, Latest("blite.documents.read", "orders"));
            Assert.Contains(Of("blite.queries", "orders"), m => Equals(m.Tags["blite.query.plan"], "index"));
            Assert.Contains(Of("blite.queries", "orders"), m => Equals(m.Tags["blite.query.plan"], "scan"));
            Assert.True(Latest("blite.page_cache.size") > 0);
            Assert.True(Latest("blite.wal.size") >= 0);
        }

        // Reopening reads pages from the file: misses.
        using var reopened = new ShopContext(_path);
        Assert.Equal(31, reopened.Orders.Count());
        _listener.RecordObservableInstruments();
        Assert.True(Latest("blite.page_cache.misses") > 0);
    }

    [Fact]
    public void Open_commit_and_checkpoint_are_traced_as_activities()
    {
        var activities = new ConcurrentQueue<Activity>();
        using var activityListener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "BLite",
            Sample = static (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllData,
            ActivityStopped = activities.Enqueue,
        };
        ActivitySource.AddActivityListener(activityListener);

        int CommitsOfThisDatabase() => activities.Count(a => a.OperationName == "commit" && Equals(a.GetTagItem("db.namespace"), _path));
        int commitsBeforeInsert;
        using (var db = new ShopContext(_path))
        {
            commitsBeforeInsert = CommitsOfThisDatabase();
            db.Orders.Insert(Orders.Create(1));
            Assert.Equal(commitsBeforeInsert + 1, CommitsOfThisDatabase());
            db.Database.Checkpoint();
        }

        Assert.Contains(activities, a => a.OperationName == "open");
        Assert.Contains(activities, a => a.OperationName == "checkpoint" && Equals(a.GetTagItem("db.namespace"), _path));
        Assert.All(activities.Where(a => a.OperationName == "commit" && Equals(a.GetTagItem("db.namespace"), _path)),
            a => Assert.Equal("blite", a.GetTagItem("db.system.name")));
    }

    private void Record<T>(Instrument instrument, T value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        where T : struct
    {
        var copy = new Dictionary<string, object?>(StringComparer.Ordinal);
        foreach (var tag in tags)
        {
            copy[tag.Key] = tag.Value;
        }

        if (Equals(copy.GetValueOrDefault("db.namespace"), _path))
        {
            Assert.Equal("blite", copy["db.system.name"]);
            _measurements.Enqueue(new Recorded(instrument.Name, Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture), copy));
        }
    }

    private List<Recorded> Of(string name, string? collection = null) =>
        _measurements.Where(m => m.Name == name && (collection is null || Equals(m.Tags.GetValueOrDefault("db.collection.name"), collection))).ToList();

    private double Sum(string name, string? collection = null) => Of(name, collection).Sum(m => m.Value);

    /// <summary>The last value an observable instrument reported (they report totals since open).</summary>
    private double Latest(string name, string? collection = null) => Of(name, collection)[^1].Value;

    private sealed record Recorded(string Name, double Value, Dictionary<string, object?> Tags);
}
