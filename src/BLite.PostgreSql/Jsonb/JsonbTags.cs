namespace BLite.PostgreSql.Jsonb;

/// <summary>
/// The reserved keys of BLite's jsonb form (docs/postgresql.md, "Document representation"): a
/// JSON object whose first key is one of these holds one value JSON cannot carry exactly. A stored
/// field name that itself starts with <c>$</c> is written with one more <c>$</c> in front, so a
/// tag can never be mistaken for a field.
/// </summary>
internal static class JsonbTags
{
    public const string Long = "$long";
    public const string ULong = "$ulong";
    public const string Decimal = "$decimal";
    public const string Double = "$double";
    public const string Date = "$date";
    public const string Kind = "$kind";
    public const string UtcDate = "$utcDate";
    public const string DateTimeOffset = "$dto";
    public const string Offset = "$offset";
    public const string TimeSpan = "$timeSpan";
    public const string DateOnly = "$dateOnly";
    public const string TimeOnly = "$timeOnly";
    public const string ObjectId = "$oid";
    public const string Uuid = "$uuid";
    public const string Binary = "$binary";
    public const string Subtype = "$subtype";
    public const string Utf8 = "$utf8";
    public const string Regex = "$regex";
    public const string Options = "$options";
    public const string Timestamp = "$timestamp";
    public const string MinKey = "$minKey";
    public const string MaxKey = "$maxKey";
    public const string Undefined = "$undefined";
    public const string Symbol = "$symbol";
    public const string Code = "$code";
    public const string Scope = "$scope";
    public const string DbPointer = "$dbPointer";
    public const string Id = "$id";

    /// <summary>Date text with seven fixed fraction digits: ordinal string order is tick order.</summary>
    public const string DateFormat = BLite.Bson.Jsonb.JsonbMemberWriter.DateFormat;

    public const string DateOnlyFormat = BLite.Bson.Jsonb.JsonbMemberWriter.DateOnlyFormat;

    /// <summary>The stored key of a field name: one more <c>$</c> in front of a name that starts with <c>$</c>.</summary>
    public static string EscapeName(string name) => name.StartsWith('$') ? "$" + name : name;

    public static string UnescapeName(string key) => key.StartsWith("$$", StringComparison.Ordinal) ? key[1..] : key;

    /// <summary>Whether an object whose first key is <paramref name="key"/> is a tagged value rather than a document.</summary>
    public static bool IsTag(ReadOnlySpan<char> key) => key.Length > 1 && key[0] == '$' && key[1] != '$';
}
