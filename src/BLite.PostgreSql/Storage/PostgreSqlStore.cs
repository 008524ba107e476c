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

    public ISchemalessStore Schemaless(string name)
    {
        var table = new PostgreSqlSchemaless(this, name);
        if (!ReadOnly)
        {
            table.EnsureSchema();
        }

        return table;
    }

    /// <summary>Runs <paramref name="operation"/> in the flow's transaction, or on a connection of its own (autocommit).</summary>
    public TResult Run<TState, TResult>(TState state, Func<NpgsqlConnection, NpgsqlTransaction?, TState, TResult> operation)
    {
        try
        {
            if (Context.CurrentTransaction is { } transaction)
            {
                return transaction.RunInStore((State: state, Operation: operation), static (store, s) =>
                {
                    var postgres = (PostgreSqlTransaction)store;
                    return s.Operation(postgres.Connection, postgres.Transaction, s.State);
                });
            }

            using var connection = DataSource.OpenConnection();
            return operation(connection, null, state);
        }
        catch (PostgresException error) when (PostgreSqlErrors.IsConflict(error))
        {
            throw PostgreSqlErrors.Conflict(error);
        }
        catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.ReadOnlySqlTransaction)
        {
            throw PostgreSqlErrors.ReadOnly(error);
        }
    }

    public async Task<TResult> RunAsync<TState, TResult>(TState state, Func<NpgsqlConnection, NpgsqlTransaction?, TState, CancellationToken, Task<TResult>> operation, CancellationToken cancellationToken)
    {
        try
        {
            if (Context.CurrentTransaction is { } transaction)
            {
                return await transaction.RunInStoreAsync((State: state, Operation: operation), static (store, s, token) =>
                {
                    var postgres = (PostgreSqlTransaction)store;
                    return s.Operation(postgres.Connection, postgres.Transaction, s.State, token);
                }, cancellationToken).ConfigureAwait(false);
            }

            var connection = await DataSource.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
            await using (connection.ConfigureAwait(false))
            {
                return await operation(connection, null, state, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (PostgresException error) when (PostgreSqlErrors.IsConflict(error))
        {
            throw PostgreSqlErrors.Conflict(error);
        }
        catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.ReadOnlySqlTransaction)
        {
            throw PostgreSqlErrors.ReadOnly(error);
        }
    }

    public IStoreTransaction BeginTransaction() => PostgreSqlTransaction.Begin(DataSource);

    public Task<IStoreTransaction> BeginTransactionAsync(CancellationToken cancellationToken) => PostgreSqlTransaction.BeginAsync(DataSource, cancellationToken);

    public void Dispose() => DataSource.Dispose();
}
