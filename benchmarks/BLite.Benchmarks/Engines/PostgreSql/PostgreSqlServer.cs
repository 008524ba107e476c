using Npgsql;

namespace BLite.Benchmarks.Engines.PostgreSql;

/// <summary>
/// The PostgreSQL server the provider comparison runs on: the one <c>BLITE_POSTGRES</c> names (an
/// Npgsql connection string, as the tests use; <c>.ci/start-postgres</c> prints one). Each store
/// gets a schema of its own, dropped when it closes, so the engines never see each other's tables.
/// </summary>
public static class PostgreSqlServer
{
    public const string Variable = "BLITE_POSTGRES";

    /// <summary>The configured connection string, or null when no server is configured.</summary>
    public static string? ConnectionString =>
        Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } configured ? configured : null;

    private static int _schemas;

    /// <summary>
    /// A schema name never used before by this process: the provider creates a database's tables
    /// once per process, so a dropped schema's name must not come back.
    /// </summary>
    public static string NewSchema(string engine) =>
        $"bench_{engine}_{Environment.ProcessId}_{Interlocked.Increment(ref _schemas)}";

    /// <summary>Creates an empty schema and returns a connection string whose connections see only it.</summary>
    public static string CreateSchema(string server, string schema)
    {
        Execute(server, $"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}");
        return new NpgsqlConnectionStringBuilder(server) { SearchPath = schema }.ConnectionString;
    }

    public static void DropSchema(string server, string schema)
    {
        // The stores' pooled connections would otherwise hold the schema's tables open.
        NpgsqlConnection.ClearAllPools();
        Execute(server, $"DROP SCHEMA IF EXISTS {schema} CASCADE");
    }

    private static void Execute(string server, string sql)
    {
        using var connection = new NpgsqlConnection(server);
        connection.Open();
        using var command = new NpgsqlCommand(sql, connection);
        command.ExecuteNonQuery();
    }
}
