using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Runs translated LINQ queries of one collection as SQL over its jsonb table
/// (<see cref="SqlQueryBuilder"/>). Outside a transaction rows stream from a pooled connection;
/// inside one they are read up front under it, so the caller may write while looping, as embedded.
/// </summary>
internal sealed class PostgreSqlQuerySource<TId, T>(PostgreSqlCollection<TId, T> table) : IDocumentQuerySource<T>, IParameterizedExplainSource
    where T : class
{
    public IFieldPathResolver FieldPaths => table.Collection.FieldPaths;

    public IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = Select(query, parameters);
        if (table.Store.Context.CurrentTransaction is not null)
        {
            return table.Run((Sql: sql, Values: values, Source: this), static (c, t, s) => s.Source.ReadAll(c, t, s.Sql, s.Values));
        }

        return Stream(sql, values);
    }

    public async IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var (sql, values) = Select(query, parameters);
        if (table.Store.Context.CurrentTransaction is not null)
        {
            var rows = await table.RunAsync((Sql: sql, Values: values, Source: this), static (c, t, s, token) => s.Source.ReadAllAsync(c, t, s.Sql, s.Values, token), cancellationToken).ConfigureAwait(false);
            foreach (var row in rows)
            {
                yield return row;
            }

            yield break;
        }

        var connection = await table.Store.DataSource.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
        await using (connection.ConfigureAwait(false))
        {
            await using var command = Command(connection, null, sql, values);
            var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
            await using (reader.ConfigureAwait(false))
            {
                while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
                {
                    yield return table.Deserialize(await reader.GetFieldValueAsync<byte[]>(0, cancellationToken).ConfigureAwait(false));
                }
            }
        }
    }

    public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = SqlQueryBuilder.Count(table.Table, query, parameters, table.Collection.IsSingleValuedPath);
        return table.Run((Sql: sql, Values: values), static (c, t, s) =>
        {
            using var command = Command(c, t, s.Sql, s.Values);
            return (long)command.ExecuteScalar()!;
        });
    }

    public async ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken)
    {
        var (sql, values) = SqlQueryBuilder.Count(table.Table, query, parameters, table.Collection.IsSingleValuedPath);
        return await table.RunAsync((Sql: sql, Values: values), static async (c, t, s, token) =>
        {
            await using var command = Command(c, t, s.Sql, s.Values);
            return (long)(await command.ExecuteScalarAsync(token).ConfigureAwait(false))!;
        }, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>PostgreSQL's plan for a query without parameter slots (LINQ binds its values through the overload).</summary>
    public string Explain(DocumentQuery query) => Explain(query, []);

    /// <summary>PostgreSQL's plan for the statement this execution would run, as <c>EXPLAIN</c> prints it.</summary>
    public string Explain(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = Select(query, parameters);
        return table.Run((Sql: "EXPLAIN " + sql, Values: values), static (c, t, s) =>
        {
            using var command = Command(c, t, s.Sql, s.Values);
            using var reader = command.ExecuteReader();
            var lines = new List<string>();
            while (reader.Read())
            {
                lines.Add(reader.GetString(0));
            }

            return string.Join(Environment.NewLine, lines);
        });
    }

    private (string Sql, List<NpgsqlParameter> Values) Select(DocumentQuery query, IReadOnlyList<BsonValue>? parameters) =>
        SqlQueryBuilder.Select(table.Table, query, parameters, table.Collection.IsSingleValuedPath, "doc");

    private IEnumerable<T> Stream(string sql, List<NpgsqlParameter> values)
    {
        using var connection = table.Store.DataSource.OpenConnection();
        using var command = Command(connection, null, sql, values);
        using var reader = command.ExecuteReader();
        while (reader.Read())
        {
            yield return table.Deserialize(reader.GetFieldValue<byte[]>(0));
        }
    }

    private List<T> ReadAll(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values)
    {
        using var command = Command(connection, transaction, sql, values);
        using var reader = command.ExecuteReader();
        var rows = new List<T>();
        while (reader.Read())
        {
            rows.Add(table.Deserialize(reader.GetFieldValue<byte[]>(0)));
        }

        return rows;
    }

    private async Task<List<T>> ReadAllAsync(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, sql, values);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        var rows = new List<T>();
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            rows.Add(table.Deserialize(await reader.GetFieldValueAsync<byte[]>(0, cancellationToken).ConfigureAwait(false)));
        }

        return rows;
    }

    private static NpgsqlCommand Command(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values)
    {
        var command = new NpgsqlCommand(sql, connection, transaction);
        command.Parameters.AddRange(values.ToArray());
        return command;
    }
}
