using BLite;
using BLite.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds the health of a BLite database to ASP.NET Core / generic-host health checks.</summary>
public static class BLiteHealthChecksBuilderExtensions
{
    /// <summary>
    /// Reports the database of the registered <typeparamref name="TContext"/>: healthy while it
    /// is open and accepts writes; <paramref name="failureStatus"/> (default unhealthy) when it
    /// could not be opened, is closed, or refuses writes after an I/O failure or detected
    /// corruption. The result's data carries the file path and the engine's figures.
    /// </summary>
    public static IHealthChecksBuilder AddBLite<TContext>(this IHealthChecksBuilder builder, string name = "blite", HealthStatus? failureStatus = null, IEnumerable<string>? tags = null)
        where TContext : DocumentDbContext
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrEmpty(name);
        return builder.Add(new HealthCheckRegistration(name, static provider => new BLiteHealthCheck<TContext>(provider), failureStatus, tags));
    }
}
