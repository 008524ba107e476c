using System.Diagnostics;
using Npgsql;

namespace BLite.PostgreSql.Tests.Infrastructure;

/// <summary>
/// The PostgreSQL server the tests use: the one named by <c>BLITE_POSTGRES</c> (an Npgsql
/// connection string; <c>.ci/run</c> starts a throwaway cluster and sets it), or else a throwaway
/// cluster this process starts with <c>.ci/start-postgres</c> in a new temporary folder and stops
/// when the tests end. Never a system-wide cluster.
/// </summary>
public sealed class PostgresCluster : IDisposable
{
    private readonly string? _ownedDirectory;

    public PostgresCluster()
    {
        var configured = Environment.GetEnvironmentVariable("BLITE_POSTGRES");
        if (!string.IsNullOrEmpty(configured))
        {
            ConnectionString = configured;
            return;
        }

        _ownedDirectory = Path.Combine(Path.GetTempPath(), "blite-pg-" + Environment.ProcessId + "-" + Guid.NewGuid().ToString("N")[..8]);
        ConnectionString = RunScript("start-postgres", _ownedDirectory).Trim();
    }

    public string ConnectionString { get; }

    /// <summary>A new, empty schema; connections of the returned string see only it.</summary>
    public string CreateSchema()
    {
        var schema = "t_" + Guid.NewGuid().ToString("N");
        using var connection = new NpgsqlConnection(ConnectionString);
        connection.Open();
        using var command = new NpgsqlCommand($"CREATE SCHEMA {schema}", connection);
        command.ExecuteNonQuery();
        return schema;
    }

    public string ConnectionStringFor(string schema) => new NpgsqlConnectionStringBuilder(ConnectionString) { SearchPath = schema }.ConnectionString;

    public void DropSchema(string schema)
    {
        using var connection = new NpgsqlConnection(ConnectionString);
        connection.Open();
        using var command = new NpgsqlCommand($"DROP SCHEMA {schema} CASCADE", connection);
        command.ExecuteNonQuery();
    }

    public void Dispose()
    {
        if (_ownedDirectory is not null)
        {
            NpgsqlConnection.ClearAllPools();
            RunScript("stop-postgres", _ownedDirectory);
        }
    }

    /// <summary>Starts a streaming replica of this cluster in <paramref name="directory"/> and returns its connection string.</summary>
    public string StartReplica(string directory)
    {
        var primary = new NpgsqlConnectionStringBuilder(ConnectionString);
        return RunScript("start-postgres-replica", directory, primary.Host!, primary.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)).Trim();
    }

    public static void StopCluster(string directory) => RunScript("stop-postgres", directory);

    public static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "BLite.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("The repository root (with BLite.sln) was not found above " + AppContext.BaseDirectory);
    }

    private static string RunScript(string name, params string[] arguments)
    {
        var start = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
        };
        start.ArgumentList.Add(Path.Combine(RepositoryRoot(), ".ci", name));
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var error = process.StandardError.ReadToEndAsync();
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($".ci/{name} failed ({process.ExitCode}): {error.Result}");
        }

        return output;
    }
}

[CollectionDefinition(Name)]
public sealed class PostgresCollection : ICollectionFixture<PostgresCluster>
{
    public const string Name = "PostgreSQL";
}
