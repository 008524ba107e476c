using System.Security.Cryptography;
using System.Text;
using BLite.Bson.Mapping;
using BLite.Core.Query;
using BLite.PostgreSql.Query;
using Npgsql;

namespace BLite.PostgreSql.Storage;

// Declared indexes become PostgreSQL indexes on open, as the embedded engine creates missing
// ones: a path the model knows never crosses an array gets a B-tree over the same typed extractor
// the query translation compares with (so the planner can use it); a path through an array gets
// one GIN index over the whole document, for containment (@>) queries.
internal sealed partial class PostgreSqlCollection<TId, T>
{
    private readonly Dictionary<string, string> _uniqueIndexNames = new(StringComparer.Ordinal);

    /// <summary>The collection's row in <c>blite_collections</c>: its id type and declared indexes, as JSON.</summary>
    private string CatalogStatement()
    {
        var json = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new System.Text.Json.Utf8JsonWriter(json))
        {
            writer.WriteStartArray();
            foreach (var (name, fieldPaths, unique) in _collection.DeclaredIndexes())
            {
                writer.WriteStartObject();
                writer.WriteString("name", name);
                writer.WriteStartArray("paths");
                foreach (var path in fieldPaths)
                {
                    writer.WriteStringValue(path);
                }

                writer.WriteEndArray();
                writer.WriteBoolean("unique", unique);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
        }

        return $"INSERT INTO blite_collections (name, id_type, indexes) VALUES ({SqlNames.Literal(_collection.Name)}, {SqlNames.Literal(_ids.KeyType.Name)}, {SqlNames.Literal(Encoding.UTF8.GetString(json.WrittenSpan))}::jsonb) "
            + "ON CONFLICT (name) DO UPDATE SET id_type = excluded.id_type, indexes = excluded.indexes;";
    }

    private string IndexStatements()
    {
        var sql = new StringBuilder(CatalogStatement());
        var gin = false;
        foreach (var index in _collection.DeclaredIndexes())
        {
            var expressions = new List<string>();
            foreach (var path in index.FieldPaths)
            {
                var field = FieldAt(path);
                if (field is null || field.IsMultiValued || SqlValue.ExtractorFor(field.BsonType) is not { } extractor)
                {
                    expressions.Clear();
                    break;
                }

                expressions.Add("(" + string.Format(System.Globalization.CultureInfo.InvariantCulture, extractor, SqlQueryBuilder.SinglePath("doc", FieldPath.Parse(path))) + ")");
            }

            if (expressions.Count == 0)
            {
                if (index.Unique)
                {
                    throw new NotSupportedException($"Unique index '{index.Name}' of collection '{_collection.Name}' is over a path through an array or of a type PostgreSQL cannot index; the PostgreSQL provider supports unique indexes on single-valued scalar paths.");
                }

                gin = true;
                continue;
            }

            var name = IndexName(index.Name);
            if (index.Unique)
            {
                _uniqueIndexNames[name] = index.Name;
            }

            sql.Append("CREATE ").Append(index.Unique ? "UNIQUE " : "").Append("INDEX IF NOT EXISTS ").Append(SqlNames.Quote(name))
                .Append(" ON ").Append(_table).Append(" (").Append(string.Join(", ", expressions)).Append(");");
        }

        if (gin)
        {
            sql.Append("CREATE INDEX IF NOT EXISTS ").Append(SqlNames.Quote(IndexName("doc_gin"))).Append(" ON ").Append(_table).Append(" USING gin (doc jsonb_path_ops);");
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

    /// <summary>The table-qualified index name, shortened with a hash to PostgreSQL's 63-byte identifiers.</summary>
    private string IndexName(string indexName)
    {
        var name = _collection.Name + "_" + indexName;
        if (Encoding.UTF8.GetByteCount(name) <= 63)
        {
            return name;
        }

        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(name)))[..12].ToLowerInvariant();
        return name[..Math.Min(name.Length, 40)] + "_" + hash;
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
