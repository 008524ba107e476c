using System.Collections.Concurrent;
using System.Diagnostics;
using BLite.Tests.Model;

namespace BLite.Tests.Diagnostics;

/// <summary>
/// The <c>query</c> activity, seen through an <see cref="ActivityListener"/>. Tests run in parallel,
/// so each looks only at activities tagged with its own database path.
/// </summary>
public sealed class QueryActivityTests : IDisposable
{
    private static readonly ActivitySource Caller = new("BLite.Tests.Caller");
    private readonly TempDirectory _directory = new();
    private readonly ActivityListener _listener;
    private readonly ConcurrentQueue<Activity> _started = new();
    private readonly ConcurrentQueue<Activity> _stopped = new();
    private readonly string _path;

    public QueryActivityTests()
    {
        _path = Path.GetFullPath(_directory.File());
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name is "BLite" or "BLite.Tests.Caller",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStarted = activity => Keep(_started, activity),
            ActivityStopped = activity => Keep(_stopped, activity),
        };
        ActivitySource.AddActivityListener(_listener);
    }

    public void Dispose()
    {
        _listener.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void A_lazy_query_is_one_activity_from_the_first_row_to_the_end_with_plan_and_database_tags()
    {
        using var db = new ShopContext(_path);
        db.Orders.InsertMany(Orders.Many(12));
        var shipped = db.Orders.Query().Where(o => o.Status == "shipped");
        Assert.Empty(Queries(_started));

        using var caller = Caller.StartActivity("caller");
        Assert.NotNull(caller);
        using (var rows = shipped.GetEnumerator())
        {
            Assert.True(rows.MoveNext());
            var running = Assert.Single(Queries(_started));
            Assert.Empty(Queries(_stopped));

            // Running but not ambient: the caller's code between rows is not parented to the query.
            Assert.Same(caller, Activity.Current);
            while (rows.MoveNext())
            {
            }

            var stopped = Assert.Single(Queries(_stopped));
            Assert.Same(running, stopped);
        }

        var query = Assert.Single(Queries(_stopped));
        Assert.Equal("query", query.OperationName);
        Assert.Equal("query orders", query.DisplayName);
        Assert.Equal("blite", query.GetTagItem("db.system.name"));
        Assert.Equal("orders", query.GetTagItem("db.collection.name"));
        Assert.Equal("query", query.GetTagItem("db.operation.name"));
        Assert.Equal("index", query.GetTagItem("blite.query.plan"));
        Assert.Equal(3L, query.GetTagItem("db.response.returned_rows"));
        Assert.Equal(caller.SpanId, query.ParentSpanId);
        Assert.True(query.Duration > TimeSpan.Zero);
        Assert.Same(caller, Activity.Current);
    }

    [Fact]
    public void A_query_abandoned_after_one_row_stops_its_activity_on_dispose_and_a_scan_says_so()
    {
        using var db = new ShopContext(_path);
        db.Orders.InsertMany(Orders.Many(12));

        var first = db.Orders.Query().Where(o => o.Total > 0m).First();
        Assert.NotNull(first);

        var query = Assert.Single(Queries(_stopped));
        Assert.Equal("scan", query.GetTagItem("blite.query.plan"));
        Assert.Equal(1L, query.GetTagItem("db.response.returned_rows"));
    }

    [Fact]
    public void Schemaless_queries_are_traced_and_a_query_never_enumerated_starts_nothing()
    {
        using var db = new ShopContext(_path);
        var notes = db.Database.GetCollection("notes");
        notes.InsertMany([new BsonDocument { { "n", 1 } }, new BsonDocument { { "n", 2 } }]);

        var never = notes.Find("""{ "n": { "$gt": 0 } }""");
        Assert.Empty(Queries(_started));

        Assert.Equal(2, never.Count());
        var query = Assert.Single(Queries(_stopped));
        Assert.Equal("notes", query.GetTagItem("db.collection.name"));
        Assert.Equal("scan", query.GetTagItem("blite.query.plan"));
        Assert.Equal(2L, query.GetTagItem("db.response.returned_rows"));
    }

    private List<Activity> Queries(ConcurrentQueue<Activity> activities) =>
        activities.Where(a => a.OperationName == "query").ToList();

    private void Keep(ConcurrentQueue<Activity> activities, Activity activity)
    {
        if (Equals(activity.GetTagItem("db.namespace"), _path))
        {
            activities.Enqueue(activity);
        }
    }
}
