using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Runs translated LINQ queries of one collection as SQL over its jsonb table
/// (<see cref="SqlQueryBuilder"/>): documents, or only the projected values the server computes. Outside a transaction rows stream from a pooled connection;
/// inside one they are read up front under it, so the caller may write while looping, as embedded.
/// </summary>
internal sealed class PostgreSqlQuerySource<TId, T>(PostgreSqlCollection<TId, T> table) : IDocumentQuerySource<T>, IProjectingQuerySource, IParameterizedExplainSource
    where T : class
{
    public IFieldPathResolver FieldPaths => table.Collection.FieldPaths;

    public IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = Select(query, parameters);
        return Rows(sql, values, table.Deserialize);
    }

    public IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken)
    {
        var (sql, values) = Select(query, parameters);
        return RowsAsync(sql, values, table.Deserialize, cancellationToken);
    }

    /// <summary>Projected values computed by the server (<see cref="SqlQueryBuilder.SelectValues"/>); no document is deserialized.</summary>
    public IEnumerable<BsonValue[]> ExecuteFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values)
    {
        var (sql, sqlValues) = SqlQueryBuilder.SelectValues(table.Table, query, parameters, table.Collection.IsSingleValuedPath, values);
        return Rows(sql, sqlValues, new ProjectedRow(values.Count).Read);
    }

    public IAsyncEnumerable<BsonValue[]> ExecuteFieldsAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values,
        CancellationToken cancellationToken)
    {
        var (sql, sqlValues) = SqlQueryBuilder.SelectValues(table.Table, query, parameters, table.Collection.IsSingleValuedPath, values);
        return RowsAsync(sql, sqlValues, new ProjectedRow(values.Count).Read, cancellationToken);
    }

    /// <summary>Outside a transaction rows stream from a pooled connection; inside one they are read up front under it.</summary>
    private IEnumerable<TRow> Rows<TRow>(string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read)
    {
        if (table.Store.Context.CurrentTransaction is not null)
        {
            return table.Run((Sql: sql, Values: values, Read: read), static (c, t, s) => ReadAll(c, t, s.Sql, s.Values, s.Read));
        }

        return Stream(sql, values, read);
    }

    private async IAsyncEnumerable<TRow> RowsAsync<TRow>(string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (table.Store.Context.CurrentTransaction is not null)
        {
            var rows = await table.RunAsync((Sql: sql, Values: values, Read: read), static (c, t, s, token) => ReadAllAsync(c, t, s.Sql, s.Values, s.Read, token), cancellationToken).ConfigureAwait(false);
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
                    yield return read(await reader.GetFieldValueAsync<byte[]>(0, cancellationToken).ConfigureAwait(false));
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

    private IEnumerable<TRow> Stream<TRow>(string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read)
    {
        using var connection = table.Store.DataSource.OpenConnection();
        using var command = Command(connection, null, sql, values);
        using var reader = command.ExecuteReader();
        while (reader.Read())
        {
            yield return read(reader.GetFieldValue<byte[]>(0));
        }
    }

    private static List<TRow> ReadAll<TRow>(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read)
    {
        using var command = Command(connection, transaction, sql, values);
        using var reader = command.ExecuteReader();
        var rows = new List<TRow>();
        while (reader.Read())
        {
            rows.Add(read(reader.GetFieldValue<byte[]>(0)));
        }

        return rows;
    }

    private static async Task<List<TRow>> ReadAllAsync<TRow>(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values,
        Func<byte[], TRow> read, CancellationToken cancellationToken)
    {
        await using var command = Command(connection, transaction, sql, values);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        var rows = new List<TRow>();
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            rows.Add(read(await reader.GetFieldValueAsync<byte[]>(0, cancellationToken).ConfigureAwait(false)));
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
