using System.Linq.Expressions;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

/// <summary>
/// Values computed from stored fields inside a condition: <c>o.Name.Length</c>,
/// <c>o.Lines.Count</c>, <c>o.PlacedAt.Year</c>, <c>o.Name.ToUpperInvariant()</c>, arithmetic
/// (<c>o.Quantity * o.Price</c>) and a second field. They become an <see cref="ExpressionFilter"/>,
/// evaluated on raw bytes; no index serves them.
/// </summary>
internal sealed partial class QueryTranslator
{
    private bool TryValue(Expression node, ParameterExpression root, out ValueExpression value)
    {
        value = null!;
        node = StripConversions(node);
        if (TryOperand(node, out var operand))
        {
            value = ValueExpression.Value(operand);
            return true;
        }

        switch (node)
        {
            case MemberExpression { Expression: { } target } member when IsComputedMember(member):
                if (ComputedFunction(member) is { } function && TryValue(target, root, out var argument))
                {
                    value = ValueExpression.Compute(function, argument);
                    return true;
                }

                return false;
            case MethodCallExpression call:
                return TryCallValue(call, root, out value);
            case BinaryExpression { NodeType: ExpressionType.Add or ExpressionType.Subtract or ExpressionType.Multiply
                or ExpressionType.Divide or ExpressionType.Modulo } arithmetic:
                if (ArithmeticKind(arithmetic) is { } kind && TryValue(arithmetic.Left, root, out var left) && TryValue(arithmetic.Right, root, out var right))
                {
                    value = ValueExpression.Arithmetic(ArithmeticOf(arithmetic.NodeType), left, right, kind);
                    return true;
                }

                return false;
        }

        if (!HasComputedMember(node) && TryPath(node, root, out var path))
        {
            value = ValueExpression.Field(path);
            return true;
        }

        return false;
    }

    private bool TryCallValue(MethodCallExpression call, ParameterExpression root, out ValueExpression value)
    {
        value = null!;
        var method = call.Method;
        if (method.DeclaringType == typeof(string) && call.Object is not null && call.Arguments.Count == 0
            && method.Name is nameof(string.ToUpper) or nameof(string.ToUpperInvariant) or nameof(string.ToLower) or nameof(string.ToLowerInvariant)
            && TryValue(call.Object, root, out var text))
        {
            var function = method.Name.StartsWith("ToUpper", StringComparison.Ordinal) ? ValueFunction.ToUpper : ValueFunction.ToLower;
            value = ValueExpression.Compute(function, text);
            return true;
        }

        if (method.DeclaringType == typeof(string) && method.Name == nameof(string.Concat) && call.Arguments.Count == 2
            && call.Arguments[0].Type == typeof(string) && call.Arguments[1].Type == typeof(string)
            && TryValue(call.Arguments[0], root, out var first) && TryValue(call.Arguments[1], root, out var second))
        {
            value = ValueExpression.Arithmetic(ArithmeticOperator.Add, first, second, NumericKind.String);
            return true;
        }

        if (method.DeclaringType == typeof(Enumerable) && method.Name == nameof(Enumerable.Count) && call.Arguments.Count == 1
            && TryValue(call.Arguments[0], root, out var sequence))
        {
            value = ValueExpression.Compute(ValueFunction.Count, sequence);
            return true;
        }

        // Min, Max and Average of no items throw in C# unless the selector is nullable (then they are
        // null and every comparison is false, as the filter's null rules give): only those are exact.
        if (TryArrayAggregate(call, root, out var aggregate)
            && aggregate is ArrayAggregateValue { Aggregate: ArrayAggregate.Sum or ArrayAggregate.Count } or ArrayAggregateValue { ElementNullable: true })
        {
            value = aggregate;
            return true;
        }

        return false;
    }

    /// <summary>True when the member chain reads a member of a scalar or collection (a computed value, never a stored field).</summary>
    private static bool HasComputedMember(Expression node)
    {
        for (var current = StripConversions(node); current is MemberExpression { Expression: { } target } member; current = StripConversions(target))
        {
            if (IsComputedMember(member))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsComputedMember(MemberExpression member) =>
        member.Expression is { } target && IsScalarOrCollection(target.Type)
        && !(member.Member.Name == "Value" && Nullable.GetUnderlyingType(target.Type) is not null);

    private static ValueFunction? ComputedFunction(MemberExpression member)
    {
        var type = Nullable.GetUnderlyingType(member.Expression!.Type) ?? member.Expression.Type;
        if (type == typeof(string))
        {
            return member.Member.Name == nameof(string.Length) ? ValueFunction.Length : null;
        }

        if (IsCollection(type))
        {
            return member.Member.Name is "Count" or "Length" ? ValueFunction.Count : null;
        }

        if (type != typeof(DateTime) && type != typeof(DateTimeOffset) && type != typeof(DateOnly) && type != typeof(TimeOnly))
        {
            return null;
        }

        return member.Member.Name switch
        {
            nameof(DateTime.Year) => ValueFunction.Year,
            nameof(DateTime.Month) => ValueFunction.Month,
            nameof(DateTime.Day) => ValueFunction.Day,
            nameof(DateTime.Hour) => ValueFunction.Hour,
            nameof(DateTime.Minute) => ValueFunction.Minute,
            nameof(DateTime.Second) => ValueFunction.Second,
            nameof(DateTime.DayOfYear) => ValueFunction.DayOfYear,
            nameof(DateTime.Date) when type == typeof(DateTime) || type == typeof(DateTimeOffset) => ValueFunction.Date,
            _ => null,
        };
    }

    private static NumericKind? ArithmeticKind(BinaryExpression arithmetic) => Type.GetTypeCode(Nullable.GetUnderlyingType(arithmetic.Type) ?? arithmetic.Type) switch
    {
        TypeCode.String when arithmetic.NodeType == ExpressionType.Add => NumericKind.String,
        TypeCode.Int32 => NumericKind.Int32,
        TypeCode.Int64 => NumericKind.Int64,
        TypeCode.Double => NumericKind.Double,
        TypeCode.Decimal => NumericKind.Decimal,
        _ => null,
    };

    private static ArithmeticOperator ArithmeticOf(ExpressionType type) => type switch
    {
        ExpressionType.Add => ArithmeticOperator.Add,
        ExpressionType.Subtract => ArithmeticOperator.Subtract,
        ExpressionType.Multiply => ArithmeticOperator.Multiply,
        ExpressionType.Divide => ArithmeticOperator.Divide,
        _ => ArithmeticOperator.Modulo,
    };
}
