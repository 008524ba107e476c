using System.Buffers;
using System.Text.Json;
using BLite.Bson;
using BLite.Core.Query;
using BLite.PostgreSql.Jsonb;
using NpgsqlTypes;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Computed values (<see cref="ValueExpression"/>) as SQL: every value is a jsonb expression in
/// BLite's stored form (SQL NULL for null or nothing), so a computed value compares with a stored
/// one by the same rules (<c>blite_eq</c>, <c>blite_cmp</c>: C#'s lifted nulls, type classes never
/// equal, numbers by value, strings ordinally) and a projection reads it back as the stored value
/// it stands for. The arithmetic and date functions follow the embedded evaluator
/// (src/BLite.Core/Query/Evaluation/ValueNodes.cs) and live in the schema (<c>SqlFunctions</c>).
/// </summary>
internal sealed partial class SqlQueryBuilder
{
    /// <summary>
    /// A projection: for each matching document, in order, one jsonb object <c>{"v": [values...]}</c>
    /// computed by the server, so only the projected values cross the wire and no document is
    /// deserialized. (Arrays are built in chunks: a function takes at most 100 arguments.)
    /// </summary>
    public static (string Sql, List<Npgsql.NpgsqlParameter> Parameters) SelectValues(string table, DocumentQuery query, IReadOnlyList<BsonValue>? values,
        Func<string, bool> isSingleValued, IReadOnlyList<ValueExpression> projected)
    {
        var builder = new SqlQueryBuilder(values, isSingleValued);
        var columns = new List<string>(projected.Count);
        foreach (var value in projected)
        {
            columns.Add(builder.Value(value, "doc"));
        }

        var chunks = columns.Chunk(90).Select(chunk => "jsonb_build_array(" + string.Join(", ", chunk) + ")");
        builder._sql.Append("SELECT jsonb_build_object('v', ").Append(columns.Count == 0 ? "'[]'::jsonb" : string.Join(" || ", chunks)).Append(") FROM ").Append(table);
        builder.Where(query.Filter);
        builder.OrderBy(query.Sort);
        builder.Limits(query, values);
        return (builder._sql.ToString(), builder._parameters);
    }

    /// <summary><c>left op right</c> of a computed condition.</summary>
    private void Computed(string root, ExpressionFilter filter)
    {
        var left = Value(filter.Left, root);
        var right = Value(filter.Right, root);
        _sql.Append(filter.Operator switch
        {
            ComparisonOperator.Eq => $"blite_eq({left}, {right})",
            ComparisonOperator.Ne => $"NOT blite_eq({left}, {right})",
            _ => $"(blite_cmp({left}, {right}) {Operator(filter.Operator)} 0)",
        });
    }

    /// <summary>The jsonb expression computing <paramref name="value"/> for the document or element <paramref name="root"/>.</summary>
    private string Value(ValueExpression value, string root) => value switch
    {
        // A path walks documents only: #> with field names reaches nothing through an array, as embedded.
        FieldValue field => "NULLIF(" + (field.Path.IsSelf ? root : SinglePath(root, field.Path)) + ", 'null'::jsonb)",
        OperandValue operand => Constant(operand.Operand.Resolve(_values)),
        ComputedValue computed => Function(computed.Function, Value(computed.Argument, root)),
        ArithmeticValue arithmetic =>
            $"blite_arith('{ArithmeticName(arithmetic.Operator)}', '{KindName(arithmetic.Kind)}', {Value(arithmetic.Left, root)}, {Value(arithmetic.Right, root)})",
        ArrayAggregateValue aggregate => Aggregate(aggregate, root),
        _ => throw new NotSupportedException($"The computed value {value} has no PostgreSQL translation."),
    };

    private static string Function(ValueFunction function, string argument) => function switch
    {
        ValueFunction.Length => $"blite_length({argument})",
        ValueFunction.Count => $"(CASE WHEN jsonb_typeof({argument}) = 'array' THEN to_jsonb(jsonb_array_length({argument})) END)",
        ValueFunction.ToUpper => $"to_jsonb(upper(blite_str({argument})))",
        ValueFunction.ToLower => $"to_jsonb(lower(blite_str({argument})))",
        ValueFunction.Date => $"blite_date({argument})",
        ValueFunction.Year => $"blite_datepart({argument}, 'year')",
        ValueFunction.Month => $"blite_datepart({argument}, 'month')",
        ValueFunction.Day => $"blite_datepart({argument}, 'day')",
        ValueFunction.Hour => $"blite_datepart({argument}, 'hour')",
        ValueFunction.Minute => $"blite_datepart({argument}, 'minute')",
        ValueFunction.Second => $"blite_datepart({argument}, 'second')",
        ValueFunction.DayOfYear => $"blite_datepart({argument}, 'doy')",
        _ => throw new NotSupportedException($"The computed member {function} has no PostgreSQL translation."),
    };

    /// <summary>
    /// Sum, Min, Max or Average over an array's items, as Enumerable computes them at the numeric
    /// type: a null or non-numeric item is skipped when the element type is nullable, 0 otherwise;
    /// Sum of nothing is 0, the others null; a missing field or a non-array is null.
    /// </summary>
    private string Aggregate(ArrayAggregateValue aggregate, string root)
    {
        var array = Value(ValueExpression.Field(aggregate.Array), root);
        var item = "i" + _aliases++;
        var number = $"blite_num({Value(aggregate.Element, item)})";
        if (!aggregate.ElementNullable)
        {
            number = $"COALESCE({number}, 0)";
        }

        var kind = aggregate.Kind;
        var typed = kind switch
        {
            NumericKind.Int32 => $"blite_wrap(trunc({number}), 32)",
            NumericKind.Int64 => $"blite_wrap(trunc({number}), 64)",
            NumericKind.Double => $"({number})::float8",
            _ => number,
        };
        var result = (aggregate.Aggregate, kind) switch
        {
            (ArrayAggregate.Sum, NumericKind.Double) => $"blite_of_double(COALESCE(sum({typed}), 0))",
            (ArrayAggregate.Sum, _) => $"blite_of_number(COALESCE(sum({typed}), 0), '{KindName(kind)}')",
            (ArrayAggregate.Average, NumericKind.Decimal) => $"blite_of_number(blite_decimal_fit(trim_scale(sum({typed})::numeric(1000, 40) / NULLIF(count({typed}), 0))), 'decimal')",
            (ArrayAggregate.Average, _) => $"blite_of_double(sum({typed})::float8 / NULLIF(count({typed}), 0))",
            (ArrayAggregate.Min, NumericKind.Double) => $"blite_of_double(min({typed}))",
            (ArrayAggregate.Max, NumericKind.Double) => $"blite_of_double(max({typed}))",
            (ArrayAggregate.Min, _) => $"blite_of_number(min({typed}), '{KindName(kind)}')",
            _ => $"blite_of_number(max({typed}), '{KindName(kind)}')",
        };
        return $"(CASE WHEN jsonb_typeof({array}) = 'array' THEN (SELECT {result} FROM jsonb_array_elements({array}) {item}) END)";
    }

    /// <summary>A constant or parameter value as a jsonb parameter in the stored form (null as SQL NULL).</summary>
    private string Constant(BsonValue value)
    {
        if (value.IsNull)
        {
            return "NULL::jsonb";
        }

        var fields = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "v", value } }.ToBytes(fields);
        var json = new ArrayBufferWriter<byte>(bytes.Length * 2 + 16);
        using (var writer = new Utf8JsonWriter(json))
        {
            JsonbWriter.WriteDocument(bytes, writer, fields);
        }

        _parameters.Add(new Npgsql.NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Jsonb, Value = json.WrittenMemory.ToArray() });
        return "($" + _parameters.Count + " -> 'v')";
    }

    private static string ArithmeticName(ArithmeticOperator op) => op switch
    {
        ArithmeticOperator.Add => "add",
        ArithmeticOperator.Subtract => "sub",
        ArithmeticOperator.Multiply => "mul",
        ArithmeticOperator.Divide => "div",
        _ => "mod",
    };

    private static string KindName(NumericKind kind) => kind switch
    {
        NumericKind.Int32 => "int32",
        NumericKind.Int64 => "int64",
        NumericKind.Double => "double",
        NumericKind.Decimal => "decimal",
        _ => "string",
    };
}
