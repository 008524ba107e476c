using System.Text;
using System.Text.Json;
using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Reads MongoDB-style JSON filters into <see cref="QueryFilter"/>s, e.g.
/// <c>{ "status": "shipped", "total": { "$gt": 100 } }</c>. Grammar (docs/query.md):
/// top-level keys are field paths (implicit AND) or <c>$and</c>/<c>$or</c>/<c>$nor</c>/<c>$not</c>;
/// a field's value is either a literal (equality) or an operator document with
/// <c>$eq $ne $gt $gte $lt $lte $in $nin $exists $not $elemMatch $startsWith $endsWith $contains</c>, and the
/// case-insensitive <c>$startsWithIgnoreCase $endsWithIgnoreCase $containsIgnoreCase $equalsIgnoreCase</c>.
/// Values are Extended JSON (canonical or relaxed): <c>{"$oid": ...}</c>, <c>{"$date": ...}</c>,
/// <c>{"$numberLong": ...}</c>, <c>{"$numberDecimal": ...}</c>, <c>{"$uuid": ...}</c>, <c>{"$binary": ...}</c>.
/// </summary>
public static partial class JsonFilterParser
{
    private static readonly JsonReaderOptions Options = new() { CommentHandling = JsonCommentHandling.Skip, MaxDepth = 64 };

    public static QueryFilter Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        return Parse(Encoding.UTF8.GetBytes(json));
    }

    public static QueryFilter Parse(ReadOnlySpan<byte> utf8Json)
    {
        var reader = new Utf8JsonReader(utf8Json, Options);
        try
        {
            Read(ref reader);
            var filter = ParseFilterObject(ref reader);
            if (reader.Read())
            {
                throw Error(ref reader, "Unexpected content after the filter object");
            }

            return filter;
        }
        catch (JsonException e)
        {
            throw new JsonFilterException("The filter is not valid JSON: " + e.Message, reader.BytesConsumed);
        }
    }

    /// <summary>A filter document: the reader is on its StartObject; on return it is on the matching EndObject.</summary>
    private static QueryFilter ParseFilterObject(ref Utf8JsonReader reader)
    {
        Expect(ref reader, JsonTokenType.StartObject, "a filter object");
        var clauses = new List<QueryFilter>();
        while (Read(ref reader) != JsonTokenType.EndObject)
        {
            var keyPosition = reader.TokenStartIndex;
            var key = reader.GetString()!;
            Read(ref reader);
            if (key.StartsWith('$'))
            {
                clauses.Add(ParseLogical(ref reader, key, keyPosition));
            }
            else
            {
                clauses.Add(ParseFieldClause(ref reader, ParsePath(key, keyPosition)));
            }
        }

        return clauses.Count == 1 ? clauses[0] : QueryFilter.And(clauses);
    }

    private static QueryFilter ParseLogical(ref Utf8JsonReader reader, string op, long position)
    {
        switch (op)
        {
            case "$and" or "$or" or "$nor":
                Expect(ref reader, JsonTokenType.StartArray, $"an array of filters after {op}");
                var filters = new List<QueryFilter>();
                while (Read(ref reader) != JsonTokenType.EndArray)
                {
                    filters.Add(ParseFilterObject(ref reader));
                }

                if (filters.Count == 0)
                {
                    throw new JsonFilterException($"{op} needs at least one filter", position, op);
                }

                return op switch
                {
                    "$and" => QueryFilter.And(filters),
                    "$or" => QueryFilter.Or(filters),
                    _ => QueryFilter.Not(QueryFilter.Or(filters)),
                };
            case "$not":
                return QueryFilter.Not(ParseFilterObject(ref reader));
            default:
                throw new JsonFilterException($"Unknown top-level operator '{op}' (expected $and, $or, $nor or $not, or a field name)", position, op);
        }
    }

    /// <summary>The value of a field key: an operator document, or a literal meaning equality.</summary>
    private static QueryFilter ParseFieldClause(ref Utf8JsonReader reader, FieldPath path)
    {
        if (reader.TokenType == JsonTokenType.StartObject && IsOperatorDocument(reader))
        {
            return ParseOperators(ref reader, path);
        }

        return QueryFilter.Eq(path, ParseValue(ref reader));
    }

    /// <summary>Whether the object starting here has a first key that is a query operator (not an Extended JSON type wrapper).</summary>
    private static bool IsOperatorDocument(Utf8JsonReader lookahead)
    {
        if (!lookahead.Read() || lookahead.TokenType != JsonTokenType.PropertyName)
        {
            return false;
        }

        var key = lookahead.GetString()!;
        return key.StartsWith('$') && !IsExtendedJsonWrapper(key);
    }

    private static QueryFilter ParseOperators(ref Utf8JsonReader reader, FieldPath path)
    {
        var clauses = new List<QueryFilter>();
        while (Read(ref reader) != JsonTokenType.EndObject)
        {
            var position = reader.TokenStartIndex;
            var op = reader.GetString()!;
            Read(ref reader);
            clauses.Add(op switch
            {
                "$eq" => QueryFilter.Eq(path, ParseValue(ref reader)),
                "$ne" => QueryFilter.Ne(path, ParseValue(ref reader)),
                "$gt" => QueryFilter.Gt(path, ParseValue(ref reader)),
                "$gte" => QueryFilter.Gte(path, ParseValue(ref reader)),
                "$lt" => QueryFilter.Lt(path, ParseValue(ref reader)),
                "$lte" => QueryFilter.Lte(path, ParseValue(ref reader)),
                "$in" => QueryFilter.In(path, ParseArrayOperand(ref reader, op, position)),
                "$nin" => QueryFilter.Nin(path, ParseArrayOperand(ref reader, op, position)),
                "$exists" => QueryFilter.Exists(path, ParseBoolean(ref reader, op, position)),
                "$startsWith" => QueryFilter.StartsWith(path, ParseStringOperand(ref reader, op, position)),
                "$endsWith" => QueryFilter.EndsWith(path, ParseStringOperand(ref reader, op, position)),
                "$contains" => QueryFilter.Contains(path, ParseStringOperand(ref reader, op, position)),
                "$startsWithIgnoreCase" => new StringMatchFilter(path, StringMatchKind.StartsWith, ParseStringOperand(ref reader, op, position), ignoreCase: true),
                "$endsWithIgnoreCase" => new StringMatchFilter(path, StringMatchKind.EndsWith, ParseStringOperand(ref reader, op, position), ignoreCase: true),
                "$containsIgnoreCase" => new StringMatchFilter(path, StringMatchKind.Contains, ParseStringOperand(ref reader, op, position), ignoreCase: true),
                "$equalsIgnoreCase" => new StringMatchFilter(path, StringMatchKind.Equal, ParseStringOperand(ref reader, op, position), ignoreCase: true),
                "$not" => ParseNot(ref reader, path, position),
                "$elemMatch" => QueryFilter.ElemMatch(path, ParseElementFilter(ref reader)),
                _ when op.StartsWith('$') => throw new JsonFilterException($"Unknown operator '{op}' on field '{path}'", position, op),
                _ => throw new JsonFilterException($"'{op}' mixes a field name into an operator document of field '{path}'", position, op),
            });
        }

        if (clauses.Count == 0)
        {
            throw new JsonFilterException($"The operator document of field '{path}' is empty", reader.TokenStartIndex, path.Path);
        }

        return clauses.Count == 1 ? clauses[0] : QueryFilter.And(clauses);
    }

    private static QueryFilter ParseNot(ref Utf8JsonReader reader, FieldPath path, long position)
    {
        if (reader.TokenType != JsonTokenType.StartObject || !IsOperatorDocument(reader))
        {
            throw new JsonFilterException($"$not on field '{path}' needs an operator document such as {{ \"$gt\": 5 }}", position, "$not");
        }

        return QueryFilter.Not(ParseOperators(ref reader, path));
    }

    /// <summary>
    /// An <c>$elemMatch</c> body: an operator document applies to the element itself (arrays of
    /// scalars), a filter document to the element's fields.
    /// </summary>
    private static QueryFilter ParseElementFilter(ref Utf8JsonReader reader)
    {
        Expect(ref reader, JsonTokenType.StartObject, "a filter object after $elemMatch");
        return IsOperatorDocument(reader) ? ParseOperators(ref reader, FieldPath.Self) : ParseFilterObject(ref reader);
    }

    private static FilterOperand ParseArrayOperand(ref Utf8JsonReader reader, string op, long position)
    {
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw new JsonFilterException($"{op} needs an array of values", position, op);
        }

        return ParseValue(ref reader);
    }

    private static FilterOperand ParseStringOperand(ref Utf8JsonReader reader, string op, long position)
    {
        if (reader.TokenType != JsonTokenType.String)
        {
            throw new JsonFilterException($"{op} needs a string", position, op);
        }

        return FilterOperand.FromConstant(reader.GetString()!);
    }

    private static bool ParseBoolean(ref Utf8JsonReader reader, string op, long position) => reader.TokenType switch
    {
        JsonTokenType.True => true,
        JsonTokenType.False => false,
        JsonTokenType.Number when reader.TryGetInt64(out var n) => n != 0,
        _ => throw new JsonFilterException($"{op} needs true or false", position, op),
    };

    private static FieldPath ParsePath(string key, long position)
    {
        try
        {
            return FieldPath.Parse(key);
        }
        catch (ArgumentException e)
        {
            throw new JsonFilterException(e.Message, position, key);
        }
    }

    private static JsonTokenType Read(ref Utf8JsonReader reader)
    {
        if (!reader.Read())
        {
            throw new JsonFilterException("The filter ends too early", reader.BytesConsumed);
        }

        return reader.TokenType;
    }

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType type, string what)
    {
        if (reader.TokenType != type)
        {
            throw Error(ref reader, $"Expected {what} but found {reader.TokenType}");
        }
    }

    private static JsonFilterException Error(ref Utf8JsonReader reader, string message) => new(message, reader.TokenStartIndex);
}
