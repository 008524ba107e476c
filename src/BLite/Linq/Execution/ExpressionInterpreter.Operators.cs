using System.Linq.Expressions;

namespace BLite.Linq.Execution;

internal static partial class ExpressionInterpreter
{
    private static object? EvalUnary(UnaryExpression unary, Context context)
    {
        if (unary.NodeType == ExpressionType.Quote)
        {
            return unary.Operand;
        }

        var operand = Eval(unary.Operand, context);
        if (unary.Method is not null && unary.NodeType is not (ExpressionType.Convert or ExpressionType.ConvertChecked))
        {
            return operand is null && IsLifted(unary) ? null : unary.Method.Invoke(null, [operand]);
        }

        switch (unary.NodeType)
        {
            case ExpressionType.Convert:
            case ExpressionType.ConvertChecked:
                if (unary.Method is not null)
                {
                    return operand is null && Nullable.GetUnderlyingType(unary.Operand.Type) is not null
                        ? null
                        : unary.Method.Invoke(null, [operand]);
                }

                return ValueConversion.Convert(operand, unary.Type, unary.NodeType == ExpressionType.ConvertChecked);
            case ExpressionType.TypeAs:
                return unary.Type.IsInstanceOfType(operand) ? operand : null;
            case ExpressionType.ArrayLength:
                return ((Array)operand!).Length;
            case ExpressionType.UnaryPlus:
                return operand;
            case ExpressionType.Not when operand is bool b:
                return !b;
            case ExpressionType.Not or ExpressionType.OnesComplement or ExpressionType.Negate or ExpressionType.NegateChecked:
                return operand is null ? null : PrimitiveArithmetic.Unary(unary.NodeType, operand, unary);
            default:
                throw Unsupported(unary, $"the operator {unary.NodeType} cannot be evaluated by the query interpreter");
        }
    }

    private static bool IsLifted(UnaryExpression unary) => Nullable.GetUnderlyingType(unary.Operand.Type) is not null;

    private static object? EvalBinary(BinaryExpression binary, Context context)
    {
        switch (binary.NodeType)
        {
            case ExpressionType.AndAlso:
                return (bool)Eval(binary.Left, context)! && (bool)Eval(binary.Right, context)!;
            case ExpressionType.OrElse:
                return (bool)Eval(binary.Left, context)! || (bool)Eval(binary.Right, context)!;
            case ExpressionType.Coalesce:
                return Eval(binary.Left, context) ?? Eval(binary.Right, context);
            case ExpressionType.ArrayIndex:
                return ((Array)Eval(binary.Left, context)!).GetValue(Convert.ToInt64(Eval(binary.Right, context), System.Globalization.CultureInfo.InvariantCulture));
        }

        var left = Eval(binary.Left, context);
        var right = Eval(binary.Right, context);
        var isComparison = binary.NodeType is ExpressionType.Equal or ExpressionType.NotEqual or ExpressionType.LessThan
            or ExpressionType.LessThanOrEqual or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual;
        var lifted = Nullable.GetUnderlyingType(binary.Left.Type) is not null || Nullable.GetUnderlyingType(binary.Right.Type) is not null;
        if (lifted && (left is null || right is null))
        {
            return binary.NodeType switch
            {
                ExpressionType.Equal => left is null && right is null,
                ExpressionType.NotEqual => !(left is null && right is null),
                _ when isComparison => binary.IsLiftedToNull ? null : false,
                _ => null,
            };
        }

        if (binary.Method is not null)
        {
            return binary.Method.Invoke(null, [left, right]);
        }

        if (binary.NodeType is ExpressionType.Equal or ExpressionType.NotEqual)
        {
            var equal = binary.Left.Type.IsValueType || binary.Left.Type == typeof(string) || left is ValueType
                ? Equals(left, right)
                : ReferenceEquals(left, right);
            return binary.NodeType == ExpressionType.Equal ? equal : !equal;
        }

        if (isComparison)
        {
            var order = ((IComparable)left!).CompareTo(right);
            return binary.NodeType switch
            {
                ExpressionType.LessThan => order < 0,
                ExpressionType.LessThanOrEqual => order <= 0,
                ExpressionType.GreaterThan => order > 0,
                _ => order >= 0,
            };
        }

        return PrimitiveArithmetic.Binary(binary.NodeType, left!, right!, binary);
    }
}
