using BLite.Providers;
using Npgsql;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// A <see cref="DocumentTransaction"/> on PostgreSQL: one connection holding a REPEATABLE READ
/// transaction, which reads from one snapshot taken at its first statement and refuses
/// (SQLSTATE 40001) to overwrite a row another transaction changed since: the embedded promise of
/// snapshot reads with no lost write, where the conflict surfaces as
/// <see cref="BLiteWriteConflictException"/> instead of waiting for a single writer.
/// </summary>
internal sealed class PostgreSqlTransaction : IStoreTransaction
{
    private PostgreSqlTransaction(NpgsqlConnection connection, NpgsqlTransaction transaction)
    {
        Connection = connection;
        Transaction = transaction;
    }

    public NpgsqlConnection Connection { get; }

    public NpgsqlTransaction Transaction { get; }

    public static PostgreSqlTransaction Begin(NpgsqlDataSource dataSource)
    {
        var connection = dataSource.OpenConnection();
        try
        {
            return new PostgreSqlTransaction(connection, connection.BeginTransaction(System.Data.IsolationLevel.RepeatableRead));
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    public static async Task<IStoreTransaction> BeginAsync(NpgsqlDataSource dataSource, CancellationToken cancellationToken)
    {
        var connection = await dataSource.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            var transaction = await connection.BeginTransactionAsync(System.Data.IsolationLevel.RepeatableRead, cancellationToken).ConfigureAwait(false);
            return new PostgreSqlTransaction(connection, transaction);
        }
        catch
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public void Commit() => PostgreSqlErrors.Translate(Transaction, static t => t.Commit());

    public Task CommitAsync(CancellationToken cancellationToken) =>
        PostgreSqlErrors.TranslateAsync((Transaction, cancellationToken), static s => s.Transaction.CommitAsync(s.cancellationToken));

    public void Rollback() => Transaction.Rollback();

    public void Dispose()
    {
        Transaction.Dispose();
        Connection.Dispose();
    }
}
