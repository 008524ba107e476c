using BLite.PostgreSql.Storage;

namespace BLite.PostgreSql;

/// <summary>Opens a <see cref="DocumentDbContext"/> on PostgreSQL instead of a database file.</summary>
public static class PostgreSqlOptionsExtensions
{
    /// <summary>
    /// The context stores its collections in the PostgreSQL database of
    /// <paramref name="connectionString"/> (an Npgsql connection string): one table per collection,
    /// created on open with its indexes, as the embedded engine does. Mappers, LINQ and
    /// transactions are unchanged (docs/postgresql.md).
    /// </summary>
    public static DocumentDbContextOptions UsePostgreSql(this DocumentDbContextOptions options, string connectionString)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrEmpty(connectionString);
        options.StoreProvider = new PostgreSqlStoreProvider(connectionString);
        return options;
    }
}
