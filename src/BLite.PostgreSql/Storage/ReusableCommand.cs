using Npgsql;
using NpgsqlTypes;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// One statement of a hot path (a single insert) kept as an idle <see cref="NpgsqlCommand"/> with its
/// parameters, rebound to each call's connection and transaction instead of built anew: a command,
/// its parameter collection and parameters are most of what a single call allocates around the
/// document. One idle command is kept; concurrent callers beyond it build and dispose their own.
/// The server-side preparation is unaffected: auto-prepare keys it by the SQL text per connection.
/// </summary>
/// <param name="sql">The statement.</param>
/// <param name="parameterTypes">One entry per parameter: its declared type, or null to infer it from each value.</param>
internal sealed class ReusableCommand(string sql, params NpgsqlDbType?[] parameterTypes)
{
    private NpgsqlCommand? _idle;

    public NpgsqlCommand Rent(NpgsqlConnection connection, NpgsqlTransaction? transaction)
    {
        var command = Interlocked.Exchange(ref _idle, null) ?? Create();
        command.Connection = connection;
        command.Transaction = transaction;
        return command;
    }

    /// <summary>Unbinds the command and its values (no document is kept alive by the cache) and keeps it idle.</summary>
    public void Return(NpgsqlCommand command)
    {
        command.Connection = null;
        command.Transaction = null;
        foreach (NpgsqlParameter parameter in command.Parameters)
        {
            parameter.Value = null;
        }

        if (Interlocked.CompareExchange(ref _idle, command, null) is not null)
        {
            command.Dispose();
        }
    }

    private NpgsqlCommand Create()
    {
        var command = new NpgsqlCommand(sql);
        foreach (var type in parameterTypes)
        {
            command.Parameters.Add(type is { } declared ? new NpgsqlParameter { NpgsqlDbType = declared } : new NpgsqlParameter());
        }

        return command;
    }
}
