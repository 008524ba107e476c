using System.Diagnostics.Metrics;
using BLite.Core.Diagnostics;
using BLite.Tests.Model;

namespace BLite.Tests.Diagnostics;

/// <summary>Runs alone (after the parallel tests), so no other test's listener is subscribed.</summary>
[CollectionDefinition(nameof(UnobservedMetrics), DisableParallelization = true)]
public sealed class UnobservedMetrics;

[Collection(nameof(UnobservedMetrics))]
public sealed class UnobservedMetricsTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void With_no_listener_operations_take_no_timestamp_and_record_nothing()
    {
        var path = Path.GetFullPath(_directory.File());
        using var db = new ShopContext(path);

        // Nothing listens: the histogram is off and an operation start reads no clock.
        Assert.False(BLiteTelemetry.OperationDuration.Enabled);
        Assert.Equal(0, BLiteTelemetry.StartOperation());

        var recorded = 0;
        using var listener = new MeterListener();
        listener.SetMeasurementEventCallback<double>((instrument, _, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == "db.namespace" && Equals(tag.Value, path))
                {
                    Interlocked.Increment(ref recorded);
                }
            }
        });
        listener.Start();

        // A listener that has not enabled the instrument still leaves it off.
        var order = Orders.Create(1);
        db.Orders.Insert(order);
        Assert.NotNull(db.Orders.FindById(order.Id));
        Assert.Single(db.Orders.FindAll().ToList());
        Assert.False(BLiteTelemetry.OperationDuration.Enabled);
        Assert.Equal(0, recorded);

        // Enabling it turns measurement on for the next operation.
        listener.EnableMeasurementEvents(BLiteTelemetry.OperationDuration);
        Assert.True(BLiteTelemetry.OperationDuration.Enabled);
        Assert.NotNull(db.Orders.FindById(order.Id));
        Assert.Equal(1, recorded);
    }
}
