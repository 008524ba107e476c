using System.Globalization;
using System.Runtime.CompilerServices;
using BLite.Linq;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Runs a translated statement on a store and reads its rows: outside a transaction they stream
/// from a pooled connection; inside one they are read up front under it, so the caller may write
/// while looping, as embedded. Shared by the typed and the schemaless collections.
/// </summary>
internal static class SqlRows
{
    public static long Count(PostgreSqlStore store, string sql, List<NpgsqlParameter> values) =>
        store.Run((Sql: sql, Values: values), static (c, t, s) =>
        {
            using var command = Command(c, t, s.Sql, s.Values);
            return (long)command.ExecuteScalar()!;
        });

    public static Task<long> CountAsync(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, CancellationToken cancellationToken) =>
        store.RunAsync((Sql: sql, Values: values), static async (c, t, s, token) =>
        {
            await using var command = Command(c, t, s.Sql, s.Values);
            return (long)(await command.ExecuteScalarAsync(token).ConfigureAwait(false))!;
        }, cancellationToken);

    /// <summary>The row of <see cref="SqlQueryBuilder.Totals"/>; null when its doubles could not be added safely.</summary>
    public static AggregateTotals? Totals(PostgreSqlStore store, string sql, List<NpgsqlParameter> values) =>
        store.Run((Sql: sql, Values: values), static (c, t, s) =>
        {
            using var command = Command(c, t, s.Sql, s.Values);
            using var reader = command.ExecuteReader(System.Data.CommandBehavior.SingleRow);
            reader.Read();
            return TotalsOf(reader);
        });

    public static Task<AggregateTotals?> TotalsAsync(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, CancellationToken cancellationToken) =>
        store.RunAsync((Sql: sql, Values: values), static async (c, t, s, token) =>
        {
            await using var command = Command(c, t, s.Sql, s.Values);
            await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SingleRow, token).ConfigureAwait(false);
            await reader.ReadAsync(token).ConfigureAwait(false);
            return TotalsOf(reader);
        }, cancellationToken);

    /// <summary>LINQ starts a double sum at 0.0, so a lone -0.0 sums to 0.0: the server's float8 sum starts at the first value.</summary>
    private static AggregateTotals? TotalsOf(NpgsqlDataReader reader) => reader.GetBoolean(5)
        ? new AggregateTotals(reader.GetInt64(0), reader.GetInt64(1), reader.GetInt64(2),
            decimal.Parse(reader.GetString(3), NumberStyles.Float, CultureInfo.InvariantCulture), 0d + reader.GetDouble(4))
        : null;

    /// <summary>The groups of <see cref="SqlQueryBuilder.Groups"/>, read up front (one row per group).</summary>
    public static IReadOnlyList<GroupTotals> Groups(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, GroupQuery group) =>
        store.Run((Sql: sql, Values: values, Group: group), static (c, t, s) =>
        {
            using var command = Command(c, t, s.Sql, s.Values);
            using var reader = command.ExecuteReader();
            var firsts = GroupFirsts(s.Group);
            var groups = new List<GroupTotals>();
            while (reader.Read())
            {
                groups.Add(GroupOf(reader, s.Group, firsts));
            }

            return groups;
        });

    public static Task<IReadOnlyList<GroupTotals>> GroupsAsync(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, GroupQuery group,
        CancellationToken cancellationToken) =>
        store.RunAsync((Sql: sql, Values: values, Group: group), static async (c, t, s, token) =>
        {
            await using var command = Command(c, t, s.Sql, s.Values);
            await using var reader = await command.ExecuteReaderAsync(token).ConfigureAwait(false);
            var firsts = GroupFirsts(s.Group);
            var groups = new List<GroupTotals>();
            while (await reader.ReadAsync(token).ConfigureAwait(false))
            {
                groups.Add(GroupOf(reader, s.Group, firsts));
            }

            return (IReadOnlyList<GroupTotals>)groups;
        }, cancellationToken);

    /// <summary>The reader of a group's first column: its key, then the Min / Max values.</summary>
    private static ProjectedRow GroupFirsts(GroupQuery group) =>
        new(1 + group.Aggregates.Count(a => a.Kind is GroupAggregateKind.Min or GroupAggregateKind.Max));

    private static GroupTotals GroupOf(NpgsqlDataReader reader, GroupQuery group, ProjectedRow firsts)
    {
        var firstValues = firsts.Read(reader.GetFieldValue<byte[]>(0));
        var totals = new GroupValueTotals[group.Aggregates.Count];
        var (column, extreme) = (3, 1);
        for (var i = 0; i < totals.Length; i++)
        {
            var aggregate = group.Aggregates[i];
            if (aggregate.Value is null)
            {
                continue;
            }

            var minMax = aggregate.Kind is GroupAggregateKind.Min or GroupAggregateKind.Max;
            totals[i] = new GroupValueTotals(reader.GetInt64(column), reader.GetInt64(column + 1), Exact(reader.GetString(column + 2)),
                Exact(reader.GetString(column + 3)), Exact(reader.GetString(column + 4)), 0d + reader.GetDouble(column + 5), reader.GetBoolean(column + 6),
                minMax ? firstValues[extreme++] : BsonValue.Null);
            column += 7;
        }

        return new GroupTotals(firstValues[0], reader.GetBoolean(2), reader.GetInt64(1), totals);
    }

    /// <summary>A numeric total as a decimal, or null outside decimal's range.</summary>
    private static decimal? Exact(string text) =>
        decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;

    /// <summary>PostgreSQL's plan for the statement, as <c>EXPLAIN</c> prints it.</summary>
    public static string Explain(PostgreSqlStore store, string sql, List<NpgsqlParameter> values) =>
        store.Run((Sql: "EXPLAIN " + sql, Values: values), static (c, t, s) =>
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

    /// <summary>Outside a transaction rows stream from a pooled connection; inside one they are read up front under it.</summary>
    public static IEnumerable<TRow> Read<TRow>(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read)
    {
        if (store.Context.CurrentTransaction is not null)
        {
            return store.Run((Sql: sql, Values: values, Read: read), static (c, t, s) => ReadAll(c, t, s.Sql, s.Values, s.Read));
        }

        return Stream(store, sql, values, read);
    }

    public static async IAsyncEnumerable<TRow> ReadAsync<TRow>(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (store.Context.CurrentTransaction is not null)
        {
            var rows = await store.RunAsync((Sql: sql, Values: values, Read: read), static (c, t, s, token) => ReadAllAsync(c, t, s.Sql, s.Values, s.Read, token), cancellationToken).ConfigureAwait(false);
            foreach (var row in rows)
            {
                yield return row;
            }

            yield break;
        }

        var connection = await store.DataSource.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
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

    private static IEnumerable<TRow> Stream<TRow>(PostgreSqlStore store, string sql, List<NpgsqlParameter> values, Func<byte[], TRow> read)
    {
        using var connection = store.DataSource.OpenConnection();
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

    public static NpgsqlCommand Command(NpgsqlConnection connection, NpgsqlTransaction? transaction, string sql, List<NpgsqlParameter> values)
    {
        var command = new NpgsqlCommand(sql, connection, transaction);
        command.Parameters.AddRange(values.ToArray());
        return command;
    }
}
