using BLite.Providers;
using Npgsql;

namespace BLite.PostgreSql.Storage;

/// <summary>A context's PostgreSQL database: the pooled data source and the collections' tables.</summary>
internal sealed class PostgreSqlStore(DocumentDbContext context, NpgsqlDataSource dataSource, bool readOnly) : IDocumentStore
{
    public DocumentDbContext Context { get; } = context;

    public NpgsqlDataSource DataSource { get; } = dataSource;

    /// <summary>Opened with <see cref="DocumentDbContextOptions.ReadOnly"/>: no schema is created and writes are refused.</summary>
    public bool ReadOnly { get; } = readOnly;

    public ICollectionStore<TId, T> Collection<TId, T>(DocumentCollection<TId, T> collection)
        where T : class
    {
        var table = new PostgreSqlCollection<TId, T>(this, collection);
        if (!ReadOnly)
        {
            table.EnsureSchema();
        }

        return table;
    }

    public IStoreTransaction BeginTransaction() => PostgreSqlTransaction.Begin(DataSource);

    public Task<IStoreTransaction> BeginTransactionAsync(CancellationToken cancellationToken) => PostgreSqlTransaction.BeginAsync(DataSource, cancellationToken);

    public void Dispose() => DataSource.Dispose();
}
