using System.Text.Json;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BLite.Samples.WebApi;

/// <summary>Writes a health report as JSON: the overall status and each check's status, description and data.</summary>
internal static class HealthResponse
{
    public static Task WriteAsync(HttpContext context, HealthReport report)
    {
        context.Response.ContentType = "application/json";
        var checks = report.Entries.ToDictionary(
            e => e.Key,
            e => new { status = e.Value.Status.ToString(), description = e.Value.Description, data = e.Value.Data });
        return context.Response.WriteAsync(JsonSerializer.Serialize(new { status = report.Status.ToString(), checks }));
    }
}
