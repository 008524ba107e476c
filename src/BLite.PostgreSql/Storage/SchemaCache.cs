using System.Collections.Concurrent;
using Npgsql;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// Runs schema statements (functions, tables, indexes: all idempotent) once per process and
/// database, so contexts created per request do not repeat them. Concurrent openers in other
/// processes are serialized by an advisory lock, since concurrent CREATE ... IF NOT EXISTS can
/// still collide in PostgreSQL's catalogs.
/// </summary>
internal static class SchemaCache
{
    private const long AdvisoryLockKey = 0x424C697465_5047; // "BLite" "PG"

    private static readonly ConcurrentDictionary<(string ConnectionString, string Sql), bool> Applied = new();

    public static void Apply(NpgsqlDataSource dataSource, string sql)
    {
        var key = (dataSource.ConnectionString, sql);
        if (Applied.ContainsKey(key))
        {
            return;
        }

        using var connection = dataSource.OpenConnection();
        using var transaction = connection.BeginTransaction();
        using (var command = new NpgsqlCommand($"SELECT pg_advisory_xact_lock({AdvisoryLockKey});" + sql, connection, transaction))
        {
            command.ExecuteNonQuery();
        }

        transaction.Commit();
        Applied[key] = true;
    }
}
