using System.Text;
using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>Renders filters as the MongoDB-style JSON that <see cref="JsonFilterParser"/> reads (parameters as <c>@pN</c>).</summary>
internal static class FilterText
{
    public static string Value(BsonValue value) => value.ToString();

    public static void Append(StringBuilder text, QueryFilter filter)
    {
        switch (filter)
        {
            case ComparisonFilter comparison:
                AppendField(text, comparison.Path, OperatorName(comparison.Operator), comparison.Value.ToString());
                break;
            case InFilter inFilter:
                AppendField(text, inFilter.Path, inFilter.Negated ? "$nin" : "$in", inFilter.Values.ToString());
                break;
            case ExistsFilter exists:
                AppendField(text, exists.Path, "$exists", exists.MustExist ? "true" : "false");
                break;
            case StringMatchFilter match:
                var name = match.Kind switch
                {
                    StringMatchKind.StartsWith => "$startsWith",
                    StringMatchKind.EndsWith => "$endsWith",
                    StringMatchKind.Equal => "$equals",
                    _ => "$contains",
                };
                AppendField(text, match.Path, match.IgnoreCase ? name + "IgnoreCase" : name, match.Value.ToString());
                break;
            case ExpressionFilter expression:
                text.Append("{ \"$expr\": \"");
                AppendValue(text, expression.Left);
                text.Append(' ').Append(OperatorName(expression.Operator)).Append(' ');
                AppendValue(text, expression.Right);
                text.Append("\" }");
                break;
            case ElemMatchFilter elemMatch:
                text.Append("{ ").Append(Quote(elemMatch.Path)).Append(": { \"$elemMatch\": ");
                Append(text, elemMatch.ElementFilter);
                text.Append(" } }");
                break;
            case AndFilter { Filters.Count: 0 }:
                text.Append("{}");
                break;
            case AndFilter all:
                AppendList(text, "$and", all.Filters);
                break;
            case OrFilter any:
                AppendList(text, "$or", any.Filters);
                break;
            case NotFilter negation:
                text.Append("{ \"$not\": ");
                Append(text, negation.Filter);
                text.Append(" }");
                break;
        }
    }

    /// <summary>A value expression as text: fields as <c>$path</c>, functions as <c>$name(arg)</c>, arithmetic in parentheses.</summary>
    public static void AppendValue(StringBuilder text, ValueExpression value)
    {
        switch (value)
        {
            case FieldValue field:
                text.Append('$').Append(field.Path.IsSelf ? "" : field.Path.Path);
                break;
            case OperandValue operand:
                text.Append(operand.Operand.ToString().Replace("\"", "'", StringComparison.Ordinal));
                break;
            case ComputedValue computed:
                text.Append('$').Append(computed.Function.ToString().ToLowerInvariant()).Append('(');
                AppendValue(text, computed.Argument);
                text.Append(')');
                break;
            case ArrayAggregateValue aggregate:
                text.Append('$').Append(aggregate.Aggregate.ToString().ToLowerInvariant()).Append("($").Append(aggregate.Array.Path);
                if (aggregate.Aggregate != ArrayAggregate.Count)
                {
                    AppendValue(text.Append(", "), aggregate.Element);
                }
                else if (aggregate.ItemFilter is { } itemFilter)
                {
                    // Single quotes, as operands print, so the $expr string stays one JSON string.
                    text.Append(", ").Append(itemFilter.ToString().Replace("\"", "'", StringComparison.Ordinal));
                }

                text.Append(')');
                break;
            case ArithmeticValue arithmetic:
                text.Append('(');
                AppendValue(text, arithmetic.Left);
                text.Append(arithmetic.Operator switch
                {
                    ArithmeticOperator.Add => " + ",
                    ArithmeticOperator.Subtract => " - ",
                    ArithmeticOperator.Multiply => " * ",
                    ArithmeticOperator.Divide => " / ",
                    _ => " % ",
                });
                AppendValue(text, arithmetic.Right);
                text.Append(')');
                break;
        }
    }

    private static void AppendField(StringBuilder text, FieldPath path, string op, string value) =>
        text.Append("{ ").Append(Quote(path)).Append(": { \"").Append(op).Append("\": ").Append(value).Append(" } }");

    private static void AppendList(StringBuilder text, string op, IReadOnlyList<QueryFilter> filters)
    {
        text.Append("{ \"").Append(op).Append("\": [");
        for (var i = 0; i < filters.Count; i++)
        {
            text.Append(i == 0 ? " " : ", ");
            Append(text, filters[i]);
        }

        text.Append(" ] }");
    }

    private static string Quote(FieldPath path) => "\"" + (path.IsSelf ? "$" : path.Path) + "\"";

    private static string OperatorName(ComparisonOperator op) => op switch
    {
        ComparisonOperator.Eq => "$eq",
        ComparisonOperator.Ne => "$ne",
        ComparisonOperator.Gt => "$gt",
        ComparisonOperator.Gte => "$gte",
        ComparisonOperator.Lt => "$lt",
        _ => "$lte",
    };
}
