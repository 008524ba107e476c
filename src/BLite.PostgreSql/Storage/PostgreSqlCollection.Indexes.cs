using BLite.Bson;
using BLite.Bson.Mapping;
using Npgsql;

namespace BLite.PostgreSql.Storage;

// Declared indexes become PostgreSQL indexes on open, as the embedded engine creates missing
// ones (IndexSql): the mapper says each path's type and whether it crosses an array.
internal sealed partial class PostgreSqlCollection<TId, T>
{
    // PostgreSQL's index name -> the declared index, for the refusals a unique index raises.
    private readonly Dictionary<string, (string Name, string[] FieldPaths)> _uniqueIndexes = new(StringComparer.Ordinal);

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
                _uniqueIndexes[IndexSql.Name(_collection.Name, name)] = (name, fieldPaths);
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

    /// <summary>A write of <paramref name="document"/> that a unique index may refuse (<see cref="UniqueWrites"/>); the refusal becomes <see cref="BLiteUniqueConstraintException"/>.</summary>
    private TResult Guarded<TResult>(NpgsqlTransaction? transaction, T document, Func<TResult> write) =>
        UniqueWrites.Guarded(transaction, _uniqueIndexes.Count > 0, write, error => UniqueViolation(error, document));

    private Task<TResult> GuardedAsync<TResult>(NpgsqlTransaction? transaction, T document, Func<Task<TResult>> write, CancellationToken cancellationToken) =>
        UniqueWrites.GuardedAsync(transaction, _uniqueIndexes.Count > 0, write, error => UniqueViolation(error, document), cancellationToken);

    private BLiteUniqueConstraintException UniqueViolation(PostgresException error, T document)
    {
        if (error.ConstraintName is not { } constraint || !_uniqueIndexes.TryGetValue(constraint, out var index))
        {
            return DuplicateId(_collection.Mapper.GetId(document));
        }

        return new BLiteUniqueConstraintException(_collection.Name, index.Name, UniqueWrites.DescribeKey(ToBsonDocument(document), index.FieldPaths));
    }
}
