namespace BLite.PostgreSql.Tests.Infrastructure;

/// <summary>Where a shared test runs its context: the same test class runs once per provider.</summary>
public enum Provider
{
    Embedded,
    PostgreSql,
}

/// <summary>
/// Opens contexts of one test on one provider: an in-memory embedded database, or a fresh
/// PostgreSQL schema dropped at the end. Every context opened for the same test sees the same data.
/// </summary>
public sealed class ProviderDatabase : IDisposable
{
    private readonly PostgresCluster _cluster;
    private readonly string? _schema;
    private readonly string? _path;
    private readonly BLite.Testing.TempDirectory? _directory;

    public ProviderDatabase(PostgresCluster cluster, Provider provider)
    {
        _cluster = cluster;
        Provider = provider;
        if (provider == Provider.PostgreSql)
        {
            _schema = cluster.CreateSchema();
        }
        else
        {
            _directory = new BLite.Testing.TempDirectory();
            _path = Path.Combine(_directory.Path, "test.blite");
        }
    }

    public Provider Provider { get; }

    /// <summary>The PostgreSQL schema's connection string (PostgreSQL only), for tests that look at the stored rows.</summary>
    public string ConnectionString => _cluster.ConnectionStringFor(_schema ?? throw new InvalidOperationException("Not a PostgreSQL test."));

    public static TheoryData<Provider> All => new() { Provider.Embedded, Provider.PostgreSql };

    public DocumentDbContextOptions Options() => Provider == Provider.PostgreSql
        ? new DocumentDbContextOptions().UsePostgreSql(_cluster.ConnectionStringFor(_schema!))
        : new DocumentDbContextOptions { Path = _path, Durability = Durability.Normal };

    public void Dispose()
    {
        if (_schema is not null)
        {
            _cluster.DropSchema(_schema);
        }

        _directory?.Dispose();
    }
}
