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

    [Fact]
    public async Task Each_typed_operation_records_one_operation_duration_with_its_collection_and_name()
    {
        using var db = new ShopContext(_path);
        var order = Orders.Create(1);
        var expected = new List<string>();
        int Timed() => Of("db.client.operation.duration", "orders").Count;

        void Step(string operation, Action action)
        {
            var before = Timed();
            action();
            Assert.Equal(before + 1, Timed());
            var last = Of("db.client.operation.duration", "orders")[^1];
            Assert.Equal(operation, last.Tags["db.operation.name"]);
            Assert.Equal("orders", last.Tags["db.collection.name"]);
            Assert.Equal("blite", last.Tags["db.system.name"]);
            Assert.InRange(last.Value, double.Epsilon, 60);
            expected.Add(operation);
        }

        Step("insert", () => db.Orders.Insert(order));
        Step("insert", () => db.Orders.InsertMany(Orders.Many(5).Select((o, i) => { o.Customer.Email = $"many{i}@example.com"; return o; })));
        Step("find_by_id", () => Assert.NotNull(db.Orders.FindById(order.Id)));
        order.Status = "shipped";
        Step("update", () => Assert.True(db.Orders.Update(order)));
        Step("upsert", () => Assert.False(db.Orders.Upsert(order)));
        Step("count", () => Assert.Equal(6, db.Orders.Count()));
        Step("count", () => Assert.True(db.Orders.Count(o => o.Status == "shipped") >= 1));
        Step("query", () => Assert.Equal(6, db.Orders.Find(o => o.Total > 0m).ToList().Count));
        Step("delete", () => Assert.True(db.Orders.Delete(order.Id)));

        // A lazily enumerated query is measured when enumeration ends, here by disposal after one row.
        var before = Timed();
        using (var rows = db.Orders.FindAll().GetEnumerator())
        {
            Assert.True(rows.MoveNext());
            Assert.Equal(before, Timed());
        }

        Assert.Equal(before + 1, Timed());
        Assert.Equal("query", Of("db.client.operation.duration", "orders")[^1].Tags["db.operation.name"]);

        // The asynchronous operations are measured the same way.
        var asyncOrder = Orders.Create(50);
        asyncOrder.Customer.Email = "async@example.com";
        before = Timed();
        await db.Orders.InsertAsync(asyncOrder);
        Assert.NotNull(await db.Orders.FindByIdAsync(asyncOrder.Id));
        Assert.Equal(6, await db.Orders.CountAsync());
        Assert.True(await db.Orders.DeleteAsync(asyncOrder.Id));
        Assert.Equal(["insert", "find_by_id", "count", "delete"], Of("db.client.operation.duration", "orders").Skip(before).Select(m => (string)m.Tags["db.operation.name"]!));
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
