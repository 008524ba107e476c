using BLite.Bson;
using Npgsql;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// Writes that a unique index may refuse, shared by typed and schemaless collections. Inside a
/// transaction a savepoint keeps the refusal from aborting it, so, as embedded, the refused
/// operation changes nothing and the transaction stays usable; the caller turns the refusal into
/// the embedded engine's exception.
/// </summary>
internal static class UniqueWrites
{
    /// <summary>SQLSTATE raised by <c>blite_unique_key</c> for a unique path that reaches an array.</summary>
    public const string PathReachesArray = "BL001";

    public static bool IsRefusal(PostgresException error) => error.SqlState is PostgresErrorCodes.UniqueViolation or PathReachesArray;

    public static TResult Guarded<TResult>(NpgsqlTransaction? transaction, bool anyUnique, Func<TResult> write, Func<PostgresException, Exception> refused)
    {
        var savepoint = transaction is not null && anyUnique;
        if (savepoint)
        {
            transaction!.Save("blite_write");
        }

        try
        {
            var result = write();
            if (savepoint)
            {
                transaction!.Release("blite_write");
            }

            return result;
        }
        catch (PostgresException error) when (IsRefusal(error))
        {
            if (savepoint)
            {
                transaction!.Rollback("blite_write");
            }

            throw refused(error);
        }
    }

    public static async Task<TResult> GuardedAsync<TResult>(NpgsqlTransaction? transaction, bool anyUnique, Func<Task<TResult>> write,
        Func<PostgresException, Exception> refused, CancellationToken cancellationToken)
    {
        var savepoint = transaction is not null && anyUnique;
        if (savepoint)
        {
            await transaction!.SaveAsync("blite_write", cancellationToken).ConfigureAwait(false);
        }

        try
        {
            var result = await write().ConfigureAwait(false);
            if (savepoint)
            {
                await transaction!.ReleaseAsync("blite_write", cancellationToken).ConfigureAwait(false);
            }

            return result;
        }
        catch (PostgresException error) when (IsRefusal(error))
        {
            if (savepoint)
            {
                await transaction!.RollbackAsync("blite_write", cancellationToken).ConfigureAwait(false);
            }

            throw refused(error);
        }
    }

    /// <summary>
    /// The key <paramref name="document"/> holds at <paramref name="fieldPaths"/>, as the embedded
    /// engine's error writes it: <c>"text"</c>, <c>42</c>, <c>null</c>; composite keys as a list.
    /// PostgreSQL redacts the values from its error unless the connection string asks for them,
    /// so the written document is the one source that always has them.
    /// </summary>
    public static string DescribeKey(BsonDocument document, IReadOnlyList<string> fieldPaths)
    {
        var parts = new string[fieldPaths.Count];
        for (var i = 0; i < parts.Length; i++)
        {
            var value = document.TryGetPath(fieldPaths[i], out var found) ? found : BsonValue.Null;
            parts[i] = value.Type switch
            {
                BsonType.Null => "null",
                BsonType.String => "\"" + value.AsString.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal) + "\"",
                _ => value.ToString(),
            };
        }

        return parts.Length == 1 ? parts[0] : "(" + string.Join(", ", parts) + ")";
    }

    /// <summary>The duplicate value from PostgreSQL's detail "Key (expr)=(value) already exists." (or "is duplicated." when an index is built).</summary>
    public static string DuplicateText(string? detail)
    {
        if (detail is null)
        {
            return "?";
        }

        var start = detail.IndexOf(")=(", StringComparison.Ordinal);
        var end = detail.LastIndexOf(") already exists", StringComparison.Ordinal);
        end = end >= 0 ? end : detail.LastIndexOf(") is duplicated", StringComparison.Ordinal);
        return start >= 0 && end > start ? detail[(start + 3)..end] : detail;
    }
}
