using BLite.Bson;

namespace BLite.PostgreSql.Storage;

/// <summary>How collections and their keys appear in SQL.</summary>
internal static class SqlNames
{
    /// <summary>A quoted identifier (any collection name is a valid table name this way).</summary>
    public static string Quote(string identifier)
    {
        if (identifier.Contains('\0', StringComparison.Ordinal))
        {
            throw new ArgumentException($"'{identifier}' contains U+0000, which PostgreSQL identifiers cannot hold.", nameof(identifier));
        }

        return "\"" + identifier.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
    }

    /// <summary>A string literal for schema statements (names and index declarations from the model, never user values).</summary>
    public static string Literal(string text)
    {
        if (text.Contains('\0', StringComparison.Ordinal))
        {
            throw new ArgumentException($"'{text}' contains U+0000, which PostgreSQL text cannot hold.", nameof(text));
        }

        return "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";
    }

    /// <summary>
    /// The primary-key column type for an id's stored key. Each orders as the embedded engine's
    /// key encoding does: ObjectId and Guid by their bytes, integers numerically, strings ordinally.
    /// </summary>
    public static string IdColumnType(Type keyType) =>
        keyType == typeof(ObjectId) ? "bytea"
        : keyType == typeof(Guid) ? "uuid"
        : keyType == typeof(int) ? "integer"
        : keyType == typeof(long) ? "bigint"
        : keyType == typeof(string) ? "text COLLATE \"C\""
        : throw new NotSupportedException($"Id key type {keyType.Name} has no PostgreSQL column type.");

    /// <summary>The Npgsql value of a stored key.</summary>
    public static object IdValue(BsonValue key) => key.Type switch
    {
        BsonType.ObjectId => key.AsObjectId.ToByteArray(),
        BsonType.Binary => key.AsGuid,
        BsonType.Int32 => key.AsInt32,
        BsonType.Int64 => key.AsInt64,
        BsonType.String => key.AsString,
        _ => throw new NotSupportedException($"An id of BSON type {key.Type} has no PostgreSQL column type."),
    };

    /// <summary>A readable id for messages, as the embedded engine names duplicates.</summary>
    public static string Describe(BsonValue key) => key.ToString();
}
