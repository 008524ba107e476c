using System.Collections.Concurrent;
using System.Diagnostics;

namespace BLite.PostgreSql.Tests.Infrastructure;

/// <summary>Records the SQL of every statement Npgsql runs (its tracing activities) that names <c>table</c>, while it is alive.</summary>
internal sealed class NpgsqlStatements : IDisposable
{
    private readonly ConcurrentQueue<string> _statements = new();
    private readonly ActivityListener _listener;

    public NpgsqlStatements(string table)
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "Npgsql",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                foreach (var (_, value) in activity.TagObjects)
                {
                    if (value is string sql && sql.Contains(table, StringComparison.Ordinal))
                    {
                        _statements.Enqueue(sql);
                    }
                }
            },
        };
        ActivitySource.AddActivityListener(_listener);
    }

    public IReadOnlyList<string> All => [.. _statements];

    public void Dispose() => _listener.Dispose();
}
