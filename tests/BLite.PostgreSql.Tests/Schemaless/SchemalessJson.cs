using BLite.Bson;

namespace BLite.PostgreSql.Tests.Schemaless;

/// <summary>
/// A schemaless document's canonical JSON with every object's fields in name order: PostgreSQL's
/// jsonb keeps its own key order (docs/postgresql.md), so documents are compared field by field
/// and value by value, types included, but not by field order.
/// </summary>
internal static class SchemalessJson
{
    public static string Sorted(BsonDocument document) => SortFields(document).ToJson(BsonJsonMode.Canonical);

    private static BsonDocument SortFields(BsonDocument document) =>
        new(document.OrderBy(field => field.Key, StringComparer.Ordinal).Select(field => KeyValuePair.Create(field.Key, SortFields(field.Value))));

    private static BsonValue SortFields(BsonValue value) => value.Type switch
    {
        BsonType.Document => SortFields(value.AsDocument),
        BsonType.Array => new BsonArray(value.AsArray.Select(SortFields)),
        _ => value,
    };
}
