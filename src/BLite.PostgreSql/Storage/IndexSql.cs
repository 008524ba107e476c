using System.Security.Cryptography;
using System.Text;
using BLite.Bson;
using BLite.Core.Query;
using BLite.PostgreSql.Query;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// The PostgreSQL form of a declared index, shared by the provider (types from the mapper) and
/// <c>blite migrate</c> (types seen in the data): a B-tree over the typed extractor of each
/// single-valued scalar path, or, for a path through an array, one GIN index on the document.
/// </summary>
internal static class IndexSql
{
    /// <summary>One indexed path: its stored field path, the BSON type of its values, and whether it crosses an array.</summary>
    public readonly record struct IndexedPath(string FieldPath, BsonType? Type, bool MultiValued);

    /// <summary>The CREATE INDEX statement, or null when only the collection's GIN index can serve it (see <see cref="GinStatement"/>).</summary>
    public static string? Statement(string collectionName, string indexName, IReadOnlyList<IndexedPath> paths, bool unique)
    {
        var expressions = new List<string>(paths.Count);
        foreach (var path in paths)
        {
            if (path.MultiValued || path.Type is not { } type || SqlValue.ExtractorFor(type) is not { } extractor)
            {
                if (unique)
                {
                    throw new NotSupportedException($"Unique index '{indexName}' of collection '{collectionName}' is over a path through an array or of a type PostgreSQL cannot index; the PostgreSQL provider supports unique indexes on single-valued scalar paths.");
                }

                return null;
            }

            expressions.Add("(" + string.Format(System.Globalization.CultureInfo.InvariantCulture, extractor, SqlQueryBuilder.SinglePath("doc", FieldPath.Parse(path.FieldPath))) + ")");
        }

        return "CREATE " + (unique ? "UNIQUE " : "") + "INDEX IF NOT EXISTS " + SqlNames.Quote(Name(collectionName, indexName))
            + " ON " + SqlNames.Quote(collectionName) + " (" + string.Join(", ", expressions) + ");";
    }

    public static string GinStatement(string collectionName) =>
        "CREATE INDEX IF NOT EXISTS " + SqlNames.Quote(Name(collectionName, "doc_gin")) + " ON " + SqlNames.Quote(collectionName) + " USING gin (doc jsonb_path_ops);";

    /// <summary>The table-qualified index name, shortened with a hash to PostgreSQL's 63-byte identifiers.</summary>
    public static string Name(string collectionName, string indexName)
    {
        var name = collectionName + "_" + indexName;
        if (Encoding.UTF8.GetByteCount(name) <= 63)
        {
            return name;
        }

        var hash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(name)))[..12].ToLowerInvariant();
        return name[..Math.Min(name.Length, 40)] + "_" + hash;
    }

    /// <summary>The row of a collection in <c>blite_collections</c>: its id type and declared indexes as JSON.</summary>
    /// <param name="keepIndexes">Leaves the indexes of an existing row as they are (a schemaless collection's, which <c>EnsureIndex</c> records).</param>
    public static string CatalogStatement(string collectionName, string idType, IEnumerable<(string Name, string[] FieldPaths, bool Unique)> indexes, bool keepIndexes = false)
    {
        var json = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new System.Text.Json.Utf8JsonWriter(json))
        {
            writer.WriteStartArray();
            foreach (var (name, fieldPaths, unique) in indexes)
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

        return $"INSERT INTO blite_collections (name, id_type, indexes) VALUES ({SqlNames.Literal(collectionName)}, {SqlNames.Literal(idType)}, {SqlNames.Literal(Encoding.UTF8.GetString(json.WrittenSpan))}::jsonb) "
            + "ON CONFLICT (name) DO UPDATE SET id_type = excluded.id_type" + (keepIndexes ? ";" : ", indexes = excluded.indexes;");
    }

    /// <summary>
    /// The id sequence of an int or long collection, moved past every id the table holds, so ids
    /// generated after copying documents in are never ones already taken.
    /// </summary>
    public static string SequenceStatement(string collectionName)
    {
        var sequence = SqlNames.Quote(collectionName + "_id_seq");
        return $"CREATE SEQUENCE IF NOT EXISTS {sequence};"
            + $"SELECT setval({SqlNames.Literal(sequence)}, GREATEST((SELECT COALESCE(max(id), 0) FROM {SqlNames.Quote(collectionName)}), (SELECT last_value FROM {sequence})));";
    }

    /// <summary>The <c>id_type</c> of a schemaless collection's catalog row: its <c>id bytea</c> column holds the engine's key encoding of any <c>_id</c>.</summary>
    public const string EncodedKeyIdType = "EncodedKey";

    /// <summary>
    /// Refuses (raise_exception, P0001) to open a collection's table through the other API: a typed
    /// table keeps its ids in a typed column, a schemaless one the encoded keys, and the two never
    /// read each other's ids. Run under the schema lock before the table statements.
    /// </summary>
    public static string LayoutGuard(string collectionName, bool schemaless)
    {
        var message = schemaless
            ? $"Collection '{collectionName}' is stored on PostgreSQL by a typed collection (its ids in a typed column); the schemaless API reads it on the embedded engine only."
            : $"Collection '{collectionName}' is stored on PostgreSQL as a schemaless collection (its ids as encoded keys); a typed collection cannot open it.";
        var otherLayout = schemaless ? $"id_type <> '{EncodedKeyIdType}'" : $"id_type = '{EncodedKeyIdType}'";
        return $"DO $guard$ BEGIN IF EXISTS (SELECT 1 FROM blite_collections WHERE name = {SqlNames.Literal(collectionName)} AND {otherLayout}) "
            + $"THEN RAISE EXCEPTION USING MESSAGE = {SqlNames.Literal(message)}; END IF; END $guard$;";
    }

    /// <summary>The table of a collection with its typed id column.</summary>
    public static string TableStatement(string collectionName, Type keyType) =>
        $"CREATE TABLE IF NOT EXISTS {SqlNames.Quote(collectionName)} (id {SqlNames.IdColumnType(keyType)} PRIMARY KEY, doc jsonb NOT NULL);";
}
