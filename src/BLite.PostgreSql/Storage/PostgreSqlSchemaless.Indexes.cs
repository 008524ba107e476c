using System.Text.Json;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.PostgreSql.Query;
using Npgsql;

namespace BLite.PostgreSql.Storage;

// EnsureIndex on a schemaless collection. A schemaless path has no declared type and may reach
// arrays, so an index is over blite_index_key, a text two values share exactly when an equality
// holds them equal: a GIN index over the keys of every value a path reaches (multikey, nested and
// composite alike), or, for a unique index, a B-tree over the one value each path holds. Equality
// and $in conditions on an indexed path add the index's test beside the exact condition
// (SqlQueryBuilder's index hints), so the planner can use it. The definitions live in the
// collection's blite_collections row, where blite migrate reads them too.
internal sealed partial class PostgreSqlSchemaless
{
    private volatile IndexDefinition[] _indexes = [];

    /// <summary>Indexed paths for the query builder: true for a unique index's path (one value per document), false for a GIN index's.</summary>
    private volatile Dictionary<string, bool>? _indexedPaths;

    public IReadOnlyList<IndexDefinition> GetIndexes() =>
        Remember(_store.Run(_name, static (c, t, name) => ReadCatalog(c, t, name)));

    public bool EnsureIndex(IndexDefinition definition) =>
        _store.Run((Table: this, Definition: definition), static (c, t, s) => s.Table.ChangeIndexes(c, t, s.Definition.Name, indexes =>
        {
            if (indexes.Find(i => i.Name == s.Definition.Name) is { } existing)
            {
                return existing.Equals(s.Definition)
                    ? null
                    : throw new BLiteException($"Collection '{s.Table._name}' already has an index '{s.Definition.Name}' defined as {existing}; drop it before redefining it as {s.Definition}.");
            }

            indexes.Add(s.Definition);
            return s.Table.CreateStatement(s.Definition);
        }));

    public bool DropIndex(string indexName) =>
        _store.Run((Table: this, Name: indexName), static (c, t, s) => s.Table.ChangeIndexes(c, t, s.Name, indexes =>
            indexes.RemoveAll(i => i.Name == s.Name) == 0 ? null : "DROP INDEX IF EXISTS " + SqlNames.Quote(IndexSql.Name(s.Table._name, s.Name)) + ";"));

    /// <summary>
    /// Under a lock on the collection's index list, reads the list, lets <paramref name="change"/>
    /// edit it and give the DDL (null: nothing to do, false), then runs it with the new list.
    /// Inside the context's transaction a savepoint undoes a refused index; outside, its own.
    /// </summary>
    private bool ChangeIndexes(NpgsqlConnection connection, NpgsqlTransaction? outer, string indexName, Func<List<IndexDefinition>, string?> change)
    {
        using var own = outer is null ? connection.BeginTransaction() : null;
        var transaction = outer ?? own!;
        var changed = UniqueWrites.Guarded(outer, anyUnique: true, () =>
        {
            using (var lockCommand = new NpgsqlCommand("SELECT pg_advisory_xact_lock(hashtext($1))", connection, transaction))
            {
                lockCommand.Parameters.Add(new NpgsqlParameter { Value = "blite_indexes:" + _name });
                lockCommand.ExecuteNonQuery();
            }

            var indexes = ReadCatalog(connection, transaction, _name).ToList();
            if (change(indexes) is not { } ddl)
            {
                return (IndexDefinition[]?)null;
            }

            var catalog = IndexSql.CatalogStatement(_name, IndexSql.EncodedKeyIdType, indexes.Select(i => (i.Name, i.FieldPaths.ToArray(), i.Unique)));
            using var command = new NpgsqlCommand(ddl + catalog, connection, transaction);
            command.ExecuteNonQuery();
            return indexes.ToArray();
        }, error => Refused(error, indexName: indexName));
        own?.Commit();
        if (changed is not null)
        {
            Remember(changed);
        }

        return changed is not null;
    }

    private string CreateStatement(IndexDefinition definition)
    {
        var keys = definition.FieldPaths.Select(p => (definition.Unique ? "blite_unique_key(doc, " : "blite_index_keys(doc, ") + SqlQueryBuilder.PathLiteral(FieldPath.Parse(p)) + ")");
        return "CREATE " + (definition.Unique ? "UNIQUE " : "") + "INDEX " + SqlNames.Quote(IndexSql.Name(_name, definition.Name)) + " ON " + _table
            + (definition.Unique ? " (" : " USING gin (") + string.Join(", ", keys) + ");";
    }

    /// <summary>Loads the index list when the collection opens.</summary>
    private void LoadIndexes() => GetIndexes();

    private IndexDefinition[] Remember(IndexDefinition[] indexes)
    {
        var paths = new Dictionary<string, bool>(StringComparer.Ordinal);
        foreach (var index in indexes)
        {
            foreach (var path in index.FieldPaths)
            {
                paths[path] = index.Unique || paths.GetValueOrDefault(path);
            }
        }

        _indexes = indexes;
        _indexedPaths = paths.Count == 0 ? null : paths;
        return indexes;
    }

    private bool AnyUnique => Array.Exists(_indexes, i => i.Unique);

    /// <summary>
    /// A write or index build refused by a unique index: the embedded engine's exception, naming
    /// the duplicate as the written <paramref name="document"/> holds it (PostgreSQL redacts the
    /// values from its error unless the connection string asks for them).
    /// </summary>
    private Exception Refused(PostgresException error, BsonDocument? document = null, string? indexName = null)
    {
        if (error.SqlState == UniqueWrites.PathReachesArray)
        {
            return new NotSupportedException(
                $"Collection '{_name}': {error.MessageText}. On PostgreSQL a unique index holds one value per document (the embedded engine indexes each element of an array).", error);
        }

        var index = indexName is null ? Array.Find(_indexes, i => IndexSql.Name(_name, i.Name) == error.ConstraintName) : null;
        var duplicate = document is not null && index is not null
            ? UniqueWrites.DescribeKey(document, index.FieldPaths)
            : UniqueWrites.DuplicateText(error.Detail);
        return new BLiteUniqueConstraintException(_name, indexName ?? index?.Name ?? error.ConstraintName ?? "?", duplicate);
    }

    private static IndexDefinition[] ReadCatalog(NpgsqlConnection connection, NpgsqlTransaction? transaction, string name)
    {
        using var command = new NpgsqlCommand("SELECT indexes::text FROM blite_collections WHERE name = $1", connection, transaction);
        command.Parameters.Add(new NpgsqlParameter { Value = name });
        if (command.ExecuteScalar() is not string json)
        {
            return [];
        }

        using var document = JsonDocument.Parse(json);
        return document.RootElement.EnumerateArray()
            .Select(index => new IndexDefinition(index.GetProperty("name").GetString()!,
                index.GetProperty("paths").EnumerateArray().Select(p => p.GetString()!).ToArray(), index.GetProperty("unique").GetBoolean()))
            .ToArray();
    }
}
