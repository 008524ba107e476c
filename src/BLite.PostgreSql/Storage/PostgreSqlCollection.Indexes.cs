using BLite.Bson.Mapping;
using Npgsql;

namespace BLite.PostgreSql.Storage;

// Declared indexes become PostgreSQL indexes on open, as the embedded engine creates missing
// ones (IndexSql): the mapper says each path's type and whether it crosses an array.
internal sealed partial class PostgreSqlCollection<TId, T>
{
    private readonly Dictionary<string, string> _uniqueIndexNames = new(StringComparer.Ordinal);

    private string IndexStatements()
    {
        var declared = _collection.DeclaredIndexes();
        var sql = new System.Text.StringBuilder(IndexSql.CatalogStatement(_collection.Name, _ids.KeyType.Name, declared));
        var gin = false;
        foreach (var (name, fieldPaths, unique) in declared)
        {
            var paths = new IndexSql.IndexedPath[fieldPaths.Length];
            for (var i = 0; i < paths.Length; i++)
            {
                var field = FieldAt(fieldPaths[i]);
                paths[i] = new IndexSql.IndexedPath(fieldPaths[i], field?.BsonType, field is null || field.IsMultiValued);
            }

            if (IndexSql.Statement(_collection.Name, name, paths, unique) is not { } statement)
            {
                gin = true;
                continue;
            }

            if (unique)
            {
                _uniqueIndexNames[IndexSql.Name(_collection.Name, name)] = name;
            }

            sql.Append(statement);
        }

        if (gin)
        {
            sql.Append(IndexSql.GinStatement(_collection.Name));
        }

        return sql.ToString();
    }

    private MappedField? FieldAt(string fieldPath)
    {
        foreach (var field in _collection.Mapper.Fields)
        {
            if (field.FieldPath == fieldPath)
            {
                return field;
            }
        }

        return null;
    }

    /// <summary>
    /// Runs a write that a unique index may refuse. Inside a transaction a savepoint keeps the
    /// refusal from aborting it, so, as embedded, the failed operation changes nothing and the
    /// transaction stays usable. The refusal becomes <see cref="BLiteUniqueConstraintException"/>.
    /// </summary>
    private TResult Guarded<TResult>(NpgsqlTransaction? transaction, Func<TResult> write)
    {
        var savepoint = transaction is not null && _uniqueIndexNames.Count > 0;
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
        catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.UniqueViolation)
        {
            if (savepoint)
            {
                transaction!.Rollback("blite_write");
            }

            throw UniqueViolation(error);
        }
    }

    private async Task<TResult> GuardedAsync<TResult>(NpgsqlTransaction? transaction, Func<Task<TResult>> write, CancellationToken cancellationToken)
    {
        var savepoint = transaction is not null && _uniqueIndexNames.Count > 0;
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
        catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.UniqueViolation)
        {
            if (savepoint)
            {
                await transaction!.RollbackAsync("blite_write", cancellationToken).ConfigureAwait(false);
            }

            throw UniqueViolation(error);
        }
    }

    private BLiteUniqueConstraintException UniqueViolation(PostgresException error)
    {
        var index = error.ConstraintName is { } constraint && _uniqueIndexNames.TryGetValue(constraint, out var name) ? name : BLiteUniqueConstraintException.PrimaryIndexName;
        return new BLiteUniqueConstraintException(_collection.Name, index, DuplicateText(error.Detail));
    }

    /// <summary>The duplicate value from PostgreSQL's detail "Key (expr)=(value) already exists.".</summary>
    private static string DuplicateText(string? detail)
    {
        if (detail is null)
        {
            return "?";
        }

        var start = detail.IndexOf(")=(", StringComparison.Ordinal);
        var end = detail.LastIndexOf(") already exists", StringComparison.Ordinal);
        return start >= 0 && end > start ? detail[(start + 3)..end] : detail;
    }
}
