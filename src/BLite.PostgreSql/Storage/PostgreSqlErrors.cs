using Npgsql;

namespace BLite.PostgreSql.Storage;

/// <summary>Turns PostgreSQL's refusals into the exceptions the embedded engine raises for the same situation.</summary>
internal static class PostgreSqlErrors
{
    /// <summary>serialization_failure and deadlock_detected: another transaction won the race.</summary>
    public static bool IsConflict(PostgresException error) => error.SqlState is PostgresErrorCodes.SerializationFailure or PostgresErrorCodes.DeadlockDetected;

    /// <summary>read_only_sql_transaction: a standby, a read-only transaction or role.</summary>
    public static BLiteException ReadOnly(PostgresException error) =>
        new("The PostgreSQL database refused a write because it is read-only here (a streaming standby, or a read-only role or transaction); write through the primary.", error);

    public static BLiteWriteConflictException Conflict(PostgresException error) =>
        new("The transaction conflicts with a concurrent transaction that changed the same documents first; nothing of it was applied, run it again.", error);

    /// <summary>Applies schema statements that start with <see cref="IndexSql.LayoutGuard"/>; its refusal becomes <see cref="NotSupportedException"/>.</summary>
    public static void RefusedLayout(NpgsqlDataSource dataSource, string sql)
    {
        try
        {
            SchemaCache.Apply(dataSource, sql);
        }
        catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.RaiseException)
        {
            throw new NotSupportedException(error.MessageText, error);
        }
    }

    public static void Translate<TState>(TState state, Action<TState> action)
    {
        try
        {
            action(state);
        }
        catch (PostgresException error) when (IsConflict(error))
        {
            throw Conflict(error);
        }
    }

    public static async Task TranslateAsync<TState>(TState state, Func<TState, Task> action)
    {
        try
        {
            await action(state).ConfigureAwait(false);
        }
        catch (PostgresException error) when (IsConflict(error))
        {
            throw Conflict(error);
        }
    }
}
