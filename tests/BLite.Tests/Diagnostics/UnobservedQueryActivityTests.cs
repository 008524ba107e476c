using System.Diagnostics;
using BLite.Core.Diagnostics;
using BLite.Tests.Model;

namespace BLite.Tests.Diagnostics;

/// <summary>In the collection that runs alone, so no other test's activity listener is attached.</summary>
[Collection(nameof(UnobservedMetrics))]
public sealed class UnobservedQueryActivityTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void With_no_listener_a_query_creates_no_activity_and_allocates_nothing_for_tracing()
    {
        using var db = new ShopContext(_directory.File());
        db.Orders.InsertMany(Orders.Many(12));
        var shipped = db.Orders.Query().Where(o => o.Status == "shipped");

        Assert.False(BLiteTelemetry.ActivitySource.HasListeners());
        var unobserved = AllocatedBy(shipped);
        Assert.Equal(unobserved, AllocatedBy(shipped));

        // A listener that declines every activity: the query is wrapped (it cannot know the answer
        // before asking), yet no activity is created. The wrapper is what the unobserved path skips.
        var started = 0;
        using var declining = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "BLite",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.None,
            ActivityStarted = _ => Interlocked.Increment(ref started),
        };
        ActivitySource.AddActivityListener(declining);
        Assert.True(BLiteTelemetry.ActivitySource.HasListeners());

        var declined = AllocatedBy(shipped);
        Assert.Equal(0, started);
        Assert.True(declined > unobserved, $"unobserved {unobserved} B, declined {declined} B");
    }

    /// <summary>Bytes this thread allocates to run the query to the end, after warming it up.</summary>
    private static long AllocatedBy(IQueryable<CustomerOrder> query)
    {
        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(3, query.AsEnumerable().Count());
        }

        var before = GC.GetAllocatedBytesForCurrentThread();
        var rows = query.AsEnumerable().Count();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(3, rows);
        return allocated;
    }
}
