using Npgsql;

namespace BLite.PostgreSql.Storage;

internal sealed partial class PostgreSqlCollection<TId, T>
{
    public T? FindById(TId id) => Run((Table: this, Id: id), static (c, t, s) =>
    {
        using var command = s.Table.Command(s.Table._findSql, c, t, s.Table.IdParameter(s.Id));
        using var reader = command.ExecuteReader(System.Data.CommandBehavior.SingleRow);
        return reader.Read() ? s.Table.Deserialize(reader.GetFieldValue<byte[]>(0)) : null;
    });

    public Task<T?> FindByIdAsync(TId id, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Id: id), static async (c, t, s, token) =>
        {
            await using var command = s.Table.Command(s.Table._findSql, c, t, s.Table.IdParameter(s.Id));
            await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SingleRow, token).ConfigureAwait(false);
            return await reader.ReadAsync(token).ConfigureAwait(false) ? s.Table.Deserialize(await reader.GetFieldValueAsync<byte[]>(0, token).ConfigureAwait(false)) : null;
        }, cancellationToken);

    public bool Exists(TId id) => Run((Table: this, Id: id), static (c, t, s) => s.Table.Exists(c, t, s.Id));

    public Task<bool> ExistsAsync(TId id, CancellationToken cancellationToken) =>
        RunAsync((Table: this, Id: id), static (c, t, s, token) => s.Table.ExistsAsync(c, t, s.Id, token), cancellationToken);

    public long Count() => Run(this, static (c, t, table) =>
    {
        using var command = new NpgsqlCommand(table._countSql, c, t);
        return (long)command.ExecuteScalar()!;
    });

    public Task<long> CountAsync(CancellationToken cancellationToken) =>
        RunAsync(this, static async (c, t, table, token) =>
        {
            await using var command = new NpgsqlCommand(table._countSql, c, t);
            return (long)(await command.ExecuteScalarAsync(token).ConfigureAwait(false))!;
        }, cancellationToken);

    private bool Exists(NpgsqlConnection connection, NpgsqlTransaction? transaction, TId id)
    {
        using var command = Command(_existsSql, connection, transaction, IdParameter(id));
        return (bool)command.ExecuteScalar()!;
    }

    private async Task<bool> ExistsAsync(NpgsqlConnection connection, NpgsqlTransaction? transaction, TId id, CancellationToken cancellationToken)
    {
        await using var command = Command(_existsSql, connection, transaction, IdParameter(id));
        return (bool)(await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false))!;
    }
}
