using System.Text;
using BLite.Bson;
using BLite.Core.Query;
using BLite.PostgreSql.Jsonb;
using Npgsql;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Translates an engine-level <see cref="DocumentQuery"/> (the filter model LINQ and JSON filters
/// both produce) into one parameterized SQL statement over a collection's jsonb table, with the
/// embedded engine's semantics (docs/query.md): values reached through arrays, comparisons inside
/// one type class, MongoDB's null-or-missing rules. Every value travels as a parameter; paths,
/// which come from the model or the filter, become quoted literals. A shape with no SQL form
/// throws <see cref="NotSupportedException"/>, never falls back to evaluation in memory.
/// </summary>
internal sealed partial class SqlQueryBuilder
{
    private readonly StringBuilder _sql = new();
    private readonly List<NpgsqlParameter> _parameters = [];
    private readonly IReadOnlyList<BsonValue>? _values;
    private readonly Func<string, bool> _isSingleValued;
    private readonly IReadOnlyDictionary<string, bool>? _indexedPaths;
    private int _aliases;

    /// <param name="indexedPaths">Paths of a schemaless collection's indexes (<see cref="IndexHint"/>): true for a unique index's, false for a GIN index's.</param>
    private SqlQueryBuilder(IReadOnlyList<BsonValue>? values, Func<string, bool> isSingleValued, IReadOnlyDictionary<string, bool>? indexedPaths = null)
    {
        _values = values;
        _isSingleValued = isSingleValued;
        _indexedPaths = indexedPaths;
    }

    public static (string Sql, List<NpgsqlParameter> Parameters) Select(string table, DocumentQuery query, IReadOnlyList<BsonValue>? values, Func<string, bool> isSingleValued, string columns,
        IReadOnlyDictionary<string, bool>? indexedPaths = null)
    {
        var builder = new SqlQueryBuilder(values, isSingleValued, indexedPaths);
        builder._sql.Append("SELECT ").Append(columns).Append(" FROM ").Append(table);
        builder.Where(query.Filter);
        builder.OrderBy(query.Sort);
        builder.Limits(query, values);
        return (builder._sql.ToString(), builder._parameters);
    }

    public static (string Sql, List<NpgsqlParameter> Parameters) Count(string table, DocumentQuery query, IReadOnlyList<BsonValue>? values, Func<string, bool> isSingleValued,
        IReadOnlyDictionary<string, bool>? indexedPaths = null)
    {
        var builder = new SqlQueryBuilder(values, isSingleValued, indexedPaths);
        builder._sql.Append("SELECT count(*) FROM (SELECT 1 FROM ").Append(table);
        builder.Where(query.Filter);
        builder.Limits(query, values);
        builder._sql.Append(") matches");
        return (builder._sql.ToString(), builder._parameters);
    }

    private void Where(QueryFilter? filter)
    {
        if (filter is null or AndFilter { Filters.Count: 0 })
        {
            return;
        }

        _sql.Append(" WHERE ");
        Filter(filter, "doc", topLevel: true);
    }

    private void Limits(DocumentQuery query, IReadOnlyList<BsonValue>? values)
    {
        var skip = query.ResolveSkip(values);
        var take = query.ResolveTake(values);
        if (take != long.MaxValue)
        {
            _sql.Append(" LIMIT ").Append(Parameter(take));
        }

        if (skip > 0)
        {
            _sql.Append(" OFFSET ").Append(Parameter(skip));
        }
    }

    /// <summary>
    /// Orders as the embedded engine: by type class (null and missing first ascending), then by
    /// value inside the class; ties by id, so paging is stable.
    /// </summary>
    private void OrderBy(IReadOnlyList<SortKey> sort) => _sql.Append(" ORDER BY ").Append(OrderTerms(sort));

    /// <summary>The terms of <see cref="OrderBy"/>, ending with the id.</summary>
    private string OrderTerms(IReadOnlyList<SortKey> sort)
    {
        var terms = new StringBuilder();
        foreach (var key in sort)
        {
            var value = key.Path.IsSelf || _isSingleValued(key.Path.Path) ? SinglePath("doc", key.Path) : ReachedSortValue(key);
            terms.Append(SortTerms(value, key.Descending)).Append(", ");
        }

        return terms.Append("id").ToString();
    }

    /// <summary>
    /// The last ORDER BY term: the raw jsonb for the classes no extractor orders. Nulls (stored or
    /// missing) and numbers (1 and 1.0, 5 and decimal 5) that the engine holds equal stay ties, left
    /// to the id.
    /// </summary>
    private const string RawOrder = "(CASE WHEN blite_class({0}) > 1 THEN ({0}) END)";

    /// <summary>The ORDER BY terms of one value: its type class, then its value inside the class.</summary>
    private static string SortTerms(string value, bool descending)
    {
        var direction = descending ? " DESC" : "";
        var terms = new StringBuilder("blite_class(").Append(value).Append(')').Append(direction);
        foreach (var extractor in (ReadOnlySpan<string>)[SqlValue.Number, SqlValue.String, SqlValue.Instant, "(({0}) ->> '$oid') COLLATE \"C\"", RawOrder])
        {
            terms.Append(", ").Append(string.Format(System.Globalization.CultureInfo.InvariantCulture, extractor, value)).Append(direction);
        }

        return terms.ToString();
    }

    /// <summary>
    /// The sort value of a path that may cross arrays, as the embedded engine takes it: the least
    /// value the path reaches ascending, the greatest descending, an array's items standing for the
    /// array (an array nested in an array is not a key here, where the engine would compare it);
    /// none reached sorts as null.
    /// </summary>
    private string ReachedSortValue(SortKey key)
    {
        var item = "k" + _aliases++;
        return $"(SELECT {item} FROM blite_reach(doc, {PathLiteral(key.Path)}) {item} WHERE jsonb_typeof({item}) <> 'array' ORDER BY {SortTerms(item, key.Descending)} LIMIT 1)";
    }

    private void Filter(QueryFilter filter, string root, bool topLevel)
    {
        switch (filter)
        {
            case AndFilter and:
                Combine(and.Filters, " AND ", "TRUE", root, topLevel);
                break;
            case OrFilter or:
                Combine(or.Filters, " OR ", "FALSE", root, topLevel);
                break;
            case NotFilter not:
                Negated(() => Filter(not.Filter, root, topLevel));
                break;
            case ComparisonFilter comparison:
                Comparison(root, topLevel, comparison.Path, comparison.Operator, comparison.Value.Resolve(_values));
                break;
            case InFilter { Negated: true } inFilter:
                Negated(() => In(root, topLevel, inFilter.Path, inFilter.Values.Resolve(_values)));
                break;
            case InFilter inFilter:
                In(root, topLevel, inFilter.Path, inFilter.Values.Resolve(_values));
                break;
            case ExistsFilter { MustExist: false } exists:
                Negated(() => Reached(root, topLevel, exists.Path, "{0} IS NOT NULL"));
                break;
            case ExistsFilter exists:
                Reached(root, topLevel, exists.Path, "{0} IS NOT NULL");
                break;
            case StringMatchFilter match:
                StringMatch(root, topLevel, match);
                break;
            case ElemMatchFilter elemMatch:
                ElemMatch(root, elemMatch);
                break;
            case ExpressionFilter expression:
                Computed(root, expression);
                break;
            default:
                throw new NotSupportedException($"The filter {filter} has no PostgreSQL translation.");
        }
    }

    private void Combine(IReadOnlyList<QueryFilter> filters, string separator, string empty, string root, bool topLevel)
    {
        if (filters.Count == 0)
        {
            _sql.Append(empty);
            return;
        }

        _sql.Append('(');
        for (var i = 0; i < filters.Count; i++)
        {
            _sql.Append(i == 0 ? "" : separator);
            Filter(filters[i], root, topLevel);
        }

        _sql.Append(')');
    }

    private void Comparison(string root, bool topLevel, FieldPath path, ComparisonOperator op, BsonValue value)
    {
        if (value.IsNull)
        {
            switch (op)
            {
                case ComparisonOperator.Eq or ComparisonOperator.Gte or ComparisonOperator.Lte:
                    NullOrMissing(root, topLevel, path);
                    return;
                case ComparisonOperator.Ne:
                    Negated(() => NullOrMissing(root, topLevel, path));
                    return;
                default:
                    _sql.Append("FALSE");
                    return;
            }
        }

        var sqlValue = Scalar(value, path);
        var parameter = Parameter(sqlValue);
        if (op == ComparisonOperator.Ne)
        {
            Negated(() => Reached(root, topLevel, path, "{0} = " + parameter, sqlValue));
            return;
        }

        var hint = op == ComparisonOperator.Eq ? IndexHint(root, path, [value]) : null;
        _sql.Append(hint is null ? "" : "(" + hint + " AND ");
        Reached(root, topLevel, path, "{0} " + Operator(op) + " " + parameter, sqlValue);
        _sql.Append(hint is null ? "" : ")");
    }

    /// <summary>
    /// For an equality or <c>$in</c> on a path a schemaless index covers: the index's own test
    /// (the values' <c>blite_index_key</c> among the document's), which every match passes, so it
    /// is added beside the exact condition and lets the planner use the index. Null when no index
    /// covers the path.
    /// </summary>
    private string? IndexHint(string root, FieldPath path, IReadOnlyList<BsonValue> values)
    {
        if (root != "doc" || _indexedPaths is null || !_indexedPaths.TryGetValue(path.Path, out var unique))
        {
            return null;
        }

        var keys = "ARRAY[" + string.Join(", ", values.Select(v => "blite_index_key(" + Constant(v) + ")")) + "]";
        return unique
            ? $"blite_unique_key(doc, {PathLiteral(path)}) = ANY({keys})"
            : $"blite_index_keys(doc, {PathLiteral(path)}) && {keys}";
    }

    /// <summary>
    /// The exact negation. Conditions are written for a WHERE clause, where an unknown (NULL)
    /// result, such as a comparison with a missing field, counts as false; under NOT it must count
    /// as false before negating, so the negation of "missing" matches, as embedded.
    /// </summary>
    private void Negated(Action condition)
    {
        _sql.Append("NOT COALESCE(");
        condition();
        _sql.Append(", FALSE)");
    }

    /// <summary><c>$eq null</c>: a stored null is reached, or nothing is.</summary>
    private void NullOrMissing(string root, bool topLevel, FieldPath path)
    {
        _sql.Append('(');
        Negated(() => Reached(root, topLevel, path, "{0} IS NOT NULL"));
        _sql.Append(" OR ");
        Reached(root, topLevel, path, "{0} = 'null'::jsonb");
        _sql.Append(')');
    }

    private void In(string root, bool topLevel, FieldPath path, BsonValue values)
    {
        if (values.Type != BsonType.Array)
        {
            throw new NotSupportedException($"$in on '{path}' needs an array of values, not {values.Type}.");
        }

        var groups = new Dictionary<(string Extractor, string SqlType), List<string>>();
        var withNull = false;
        foreach (var item in values.AsArray)
        {
            if (item.IsNull)
            {
                withNull = true;
                continue;
            }

            var sqlValue = Scalar(item, path);
            if (!groups.TryGetValue((sqlValue.ExtractorFormat, sqlValue.SqlType), out var texts))
            {
                groups[(sqlValue.ExtractorFormat, sqlValue.SqlType)] = texts = [];
            }

            texts.Add(sqlValue.Text);
        }

        var hint = withNull || values.AsArray.Count == 0 ? null : IndexHint(root, path, values.AsArray.ToArray());
        _sql.Append(hint is null ? "(" : "(" + hint + " AND (");
        var first = true;
        if (withNull)
        {
            NullOrMissing(root, topLevel, path);
            first = false;
        }

        foreach (var ((extractor, sqlType), texts) in groups)
        {
            _sql.Append(first ? "" : " OR ");
            first = false;
            var parameter = Add(texts.ToArray()) + "::" + sqlType + "[]";
            Reached(root, topLevel, path, "{0} = ANY(" + parameter + ")", new SqlValue(extractor, sqlType, ""));
        }

        _sql.Append(first ? "FALSE)" : ")").Append(hint is null ? "" : ")");
    }

    private void StringMatch(string root, bool topLevel, StringMatchFilter match)
    {
        var value = match.Value.Resolve(_values);
        if (value.Type != BsonType.String)
        {
            throw new NotSupportedException($"{match} needs a string operand, not {value.Type}.");
        }

        var parameter = Add(match.IgnoreCase ? value.AsString.ToUpperInvariant() : value.AsString) + "::text";
        var text = match.IgnoreCase ? "upper({0})" : "{0}";
        var condition = match.Kind switch
        {
            StringMatchKind.StartsWith => $"starts_with({text}, {parameter})",
            StringMatchKind.EndsWith => $"right({text}, char_length({parameter})) = {parameter}",
            StringMatchKind.Contains => $"strpos({text}, {parameter}) > 0",
            _ => $"{text} = {parameter}",
        };
        Reached(root, topLevel, match.Path, condition, new SqlValue("blite_str({0})", "text", ""));
    }

    private void ElemMatch(string root, ElemMatchFilter elemMatch)
    {
        var array = "a" + _aliases++;
        var element = "e" + _aliases++;
        _sql.Append("EXISTS (SELECT 1 FROM blite_reach(").Append(root).Append(", ").Append(PathLiteral(elemMatch.Path)).Append(") ").Append(array)
            .Append(", jsonb_array_elements(CASE WHEN jsonb_typeof(").Append(array).Append(") = 'array' THEN ").Append(array).Append(" END) ").Append(element)
            .Append(" WHERE ");
        Filter(elemMatch.ElementFilter, element, topLevel: false);
        _sql.Append(')');
    }

    /// <summary>
    /// "Some value the path reaches satisfies <paramref name="condition"/>" (a format over the
    /// value, already extracted by <paramref name="extractor"/> when given). A path the model knows
    /// never crosses an array is one <c>#&gt;</c> lookup, which expression indexes serve; any other
    /// visits every value reached with <c>blite_reach</c>.
    /// </summary>
    private void Reached(string root, bool topLevel, FieldPath path, string condition, SqlValue? extractor = null)
    {
        if (topLevel && !path.IsSelf && _isSingleValued(path.Path))
        {
            var value = SinglePath(root, path);
            var operand = extractor is { } e ? e.Extract(value) : value;
            _sql.Append('(').Append(Format(condition, operand)).Append(')');
            return;
        }

        var alias = "r" + _aliases++;
        var reached = extractor is { } x ? x.Extract(alias) : alias;
        _sql.Append("EXISTS (SELECT 1 FROM blite_reach(").Append(root).Append(", ").Append(PathLiteral(path)).Append(") ").Append(alias)
            .Append(" WHERE ").Append(Format(condition, reached)).Append(')');
    }

    private static string Format(string condition, string value) => condition.Replace("{0}", value, StringComparison.Ordinal);

    private static SqlValue Scalar(BsonValue value, FieldPath path) =>
        SqlValue.TryFrom(value, out var sql) ? sql
        : throw new NotSupportedException($"Comparing '{path}' with a {value.Type} value is not translated to PostgreSQL.");

    private static string Operator(ComparisonOperator op) => op switch
    {
        ComparisonOperator.Eq => "=",
        ComparisonOperator.Gt => ">",
        ComparisonOperator.Gte => ">=",
        ComparisonOperator.Lt => "<",
        _ => "<=",
    };

    /// <summary>The jsonb at a single-valued path: <c>doc #&gt; '{a,b}'</c> (SQL NULL when missing).</summary>
    public static string SinglePath(string root, FieldPath path) => "(" + root + " #> " + PathLiteral(path) + ")";

    /// <summary>A path as a text[] literal of stored keys (a name starting with <c>$</c> is stored with one more).</summary>
    public static string PathLiteral(FieldPath path)
    {
        var literal = new StringBuilder("'{");
        for (var i = 0; i < path.Segments.Count; i++)
        {
            var segment = JsonbTags.EscapeName(path.Segments[i]);
            literal.Append(i == 0 ? "" : ",").Append('"')
                .Append(segment.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal).Replace("'", "''", StringComparison.Ordinal))
                .Append('"');
        }

        return literal.Append("}'::text[]").ToString();
    }

    private string Parameter(SqlValue value) => Add(value.Text) + "::" + value.SqlType;

    private string Parameter(long value) => Add(value);

    private string Add(object value)
    {
        _parameters.Add(new NpgsqlParameter { Value = value });
        return "$" + _parameters.Count;
    }
}
