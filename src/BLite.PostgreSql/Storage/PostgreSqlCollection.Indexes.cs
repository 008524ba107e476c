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

    /// <summary>A write that a unique index may refuse (<see cref="UniqueWrites"/>); the refusal becomes <see cref="BLiteUniqueConstraintException"/>.</summary>
    private TResult Guarded<TResult>(NpgsqlTransaction? transaction, Func<TResult> write) =>
        UniqueWrites.Guarded(transaction, _uniqueIndexNames.Count > 0, write, UniqueViolation);

    private Task<TResult> GuardedAsync<TResult>(NpgsqlTransaction? transaction, Func<Task<TResult>> write, CancellationToken cancellationToken) =>
        UniqueWrites.GuardedAsync(transaction, _uniqueIndexNames.Count > 0, write, UniqueViolation, cancellationToken);

    private BLiteUniqueConstraintException UniqueViolation(PostgresException error)
    {
        var index = error.ConstraintName is { } constraint && _uniqueIndexNames.TryGetValue(constraint, out var name) ? name : BLiteUniqueConstraintException.PrimaryIndexName;
        return new BLiteUniqueConstraintException(_collection.Name, index, UniqueWrites.DuplicateText(error.Detail));
    }
}
