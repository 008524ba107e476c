using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BLite.Extensions.DependencyInjection;

/// <summary>The health of one registered context's database; cheap (no file scan), so it can be polled.</summary>
internal sealed class BLiteHealthCheck<TContext> : IHealthCheck
    where TContext : DocumentDbContext
{
    private readonly IServiceProvider _provider;

    public BLiteHealthCheck(IServiceProvider provider)
    {
        _provider = provider;
    }

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        DatabaseFacade database;
        StorageStatistics statistics;
        try
        {
            // Resolved here rather than injected: a database that cannot be opened (locked by
            // another process, corrupt) is exactly what this check has to report.
            database = _provider.GetRequiredService<TContext>().Database;
            statistics = database.GetStatistics();
        }
        catch (Exception ex) when (ex is BLiteException or ObjectDisposedException or IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            return Task.FromResult(new HealthCheckResult(context.Registration.FailureStatus, $"The {typeof(TContext).Name} database is not available: {ex.Message}", ex));
        }

        var data = new Dictionary<string, object>(StringComparer.Ordinal)
        {
            ["path"] = database.Path ?? "(in memory)",
            ["commits"] = statistics.Commits,
            ["checkpoints"] = statistics.Checkpoints,
            ["walBytes"] = statistics.WalBytes,
            ["cachedBytes"] = statistics.CachedBytes,
            ["activeReaders"] = statistics.ActiveReaders,
        };

        return Task.FromResult(database.AcceptsWrites
            ? HealthCheckResult.Healthy($"The {typeof(TContext).Name} database is open and accepts writes.", data)
            : new HealthCheckResult(context.Registration.FailureStatus, $"The {typeof(TContext).Name} database refuses writes: {database.WriteRefusalReason}", data: data));
    }
}
