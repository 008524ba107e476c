using System.Globalization;
using BLite.Bson;
using BLite.PostgreSql.Jsonb;

namespace BLite.PostgreSql.Query;

/// <summary>
/// How a value of one type class is read from jsonb and compared in SQL: the extractor applied to
/// a jsonb expression (NULL when the value is of another class, so comparisons never cross classes,
/// as embedded), the SQL type the operand is cast to, and the operand's text.
/// </summary>
internal readonly record struct SqlValue(string ExtractorFormat, string SqlType, string Text)
{
    /// <summary>The extractor applied to <paramref name="jsonb"/>.</summary>
    public string Extract(string jsonb) => string.Format(CultureInfo.InvariantCulture, ExtractorFormat, jsonb);

    public const string Number = "blite_num({0})";
    public const string String = "blite_str({0}) COLLATE \"C\"";
    public const string Instant = "blite_instant({0}) COLLATE \"C\"";

    /// <summary>The SQL form of a non-null scalar operand, or false when it has none (documents, arrays, binary...).</summary>
    public static bool TryFrom(BsonValue value, out SqlValue sql)
    {
        var invariant = CultureInfo.InvariantCulture;
        sql = value.Type switch
        {
            BsonType.Int32 => new SqlValue(Number, "numeric", value.AsInt32.ToString(invariant)),
            BsonType.Int64 => new SqlValue(Number, "numeric", value.AsInt64.ToString(invariant)),
            BsonType.UInt64 => new SqlValue(Number, "numeric", value.AsUInt64.ToString(invariant)),
            BsonType.Double => new SqlValue(Number, "numeric", DoubleText(value.AsDouble)),
            BsonType.Decimal128 => new SqlValue(Number, "numeric", value.AsDecimal128.ToString()),
            BsonType.String => new SqlValue(String, "text", value.AsString),
            BsonType.DateTime => new SqlValue(Instant, "text", value.AsDateTime.ToString(JsonbTags.DateFormat, invariant)),
            BsonType.DateTimeOffset => new SqlValue(Instant, "text", value.AsDateTimeOffset.UtcDateTime.ToString(JsonbTags.DateFormat, invariant)),
            BsonType.Boolean => new SqlValue("(CASE WHEN jsonb_typeof({0}) = 'boolean' THEN ({0})::text END)", "text", value.AsBoolean ? "true" : "false"),
            BsonType.ObjectId => new SqlValue("(({0}) ->> '$oid') COLLATE \"C\"", "text", value.AsObjectId.ToString()),
            BsonType.Binary when value.AsBinary.Length == 16 && value.BinarySubtype == BsonBinarySubtype.Uuid => new SqlValue("(({0}) ->> '$uuid')", "text", value.AsGuid.ToString()),
            BsonType.TimeSpan => new SqlValue("((({0}) ->> '$timeSpan')::bigint)", "bigint", value.AsTimeSpan.Ticks.ToString(invariant)),
            BsonType.TimeOnly => new SqlValue("((({0}) ->> '$timeOnly')::bigint)", "bigint", value.AsTimeOnly.Ticks.ToString(invariant)),
            BsonType.DateOnly => new SqlValue("(({0}) ->> '$dateOnly') COLLATE \"C\"", "text", value.AsDateOnly.ToString(JsonbTags.DateOnlyFormat, invariant)),
            _ => default,
        };
        return sql.ExtractorFormat is not null;
    }

    /// <summary>The extractor an index over a stored field of this type uses (the one queries with an operand of that type use).</summary>
    public static string? ExtractorFor(BsonType storedType) => storedType switch
    {
        BsonType.Int32 or BsonType.Int64 or BsonType.UInt64 or BsonType.Double or BsonType.Decimal128 => Number,
        BsonType.String => String,
        BsonType.DateTime or BsonType.DateTimeOffset => Instant,
        BsonType.Boolean => "(CASE WHEN jsonb_typeof({0}) = 'boolean' THEN ({0})::text END)",
        BsonType.ObjectId => "(({0}) ->> '$oid') COLLATE \"C\"",
        BsonType.Binary => "(({0}) ->> '$uuid')",
        BsonType.TimeSpan => "((({0}) ->> '$timeSpan')::bigint)",
        BsonType.TimeOnly => "((({0}) ->> '$timeOnly')::bigint)",
        BsonType.DateOnly => "(({0}) ->> '$dateOnly') COLLATE \"C\"",
        _ => null,
    };

    /// <summary>
    /// The extractor whose equality and order are those of the CLR type <paramref name="clrType"/>
    /// (numbers by value, strings ordinally, DateTime by its clock, DateTimeOffset by its instant),
    /// as a generated mapper stores it; null for a type no extractor compares.
    /// </summary>
    public static string? ExtractorFor(Type clrType)
    {
        var type = Nullable.GetUnderlyingType(clrType) ?? clrType;
        var stored = type switch
        {
            _ when type.IsEnum || type == typeof(int) || type == typeof(long) || type == typeof(short) || type == typeof(byte) || type == typeof(sbyte)
                || type == typeof(ushort) || type == typeof(uint) || type == typeof(ulong) || type == typeof(float) || type == typeof(double)
                || type == typeof(decimal) => BsonType.Decimal128,
            _ when type == typeof(string) => BsonType.String,
            _ when type == typeof(DateTime) || type == typeof(DateTimeOffset) => BsonType.DateTime,
            _ when type == typeof(bool) => BsonType.Boolean,
            _ when type == typeof(Guid) => BsonType.Binary,
            _ when type == typeof(ObjectId) => BsonType.ObjectId,
            _ when type == typeof(TimeSpan) => BsonType.TimeSpan,
            _ when type == typeof(TimeOnly) => BsonType.TimeOnly,
            _ when type == typeof(DateOnly) => BsonType.DateOnly,
            _ => BsonType.Null,
        };
        return ExtractorFor(stored);
    }

    private static string DoubleText(double value) =>
        double.IsNaN(value) ? "NaN" : double.IsPositiveInfinity(value) ? "Infinity" : double.IsNegativeInfinity(value) ? "-Infinity"
        : value.ToString("R", CultureInfo.InvariantCulture);
}
