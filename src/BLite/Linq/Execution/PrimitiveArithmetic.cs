using System.Linq.Expressions;
using System.Numerics;

namespace BLite.Linq.Execution;

/// <summary>
/// C# arithmetic on boxed primitives, for expression nodes that carry no operator method (the
/// compiler emits none for int, long, double...). Both operands already have the node's operand
/// type; the C# rules for overflow (checked / unchecked) are kept.
/// </summary>
internal static class PrimitiveArithmetic
{
    public static object Binary(ExpressionType op, object left, object right, Expression node)
    {
        return (left, right) switch
        {
            (int a, int b) => Integer(op, a, b, node),
            (long a, long b) => Integer(op, a, b, node),
            (uint a, uint b) => Integer(op, a, b, node),
            (ulong a, ulong b) => Integer(op, a, b, node),
            (double a, double b) => Double(op, a, b, node),
            (float a, float b) => (float)Double(op, a, b, node),
            (bool a, bool b) => op switch
            {
                ExpressionType.And => a & b,
                ExpressionType.Or => a | b,
                ExpressionType.ExclusiveOr => a ^ b,
                _ => throw ExpressionInterpreter.Unsupported(node, $"the operator {op} does not apply to booleans"),
            },
            (int a, _) when op is ExpressionType.LeftShift or ExpressionType.RightShift => Integer(op, a, (int)right, node),
            (long a, _) when op is ExpressionType.LeftShift or ExpressionType.RightShift => Integer(op, a, (long)(int)right, node),
            _ => throw ExpressionInterpreter.Unsupported(node, $"the operator {op} on {left.GetType().Name} cannot be evaluated by the query interpreter"),
        };
    }

    public static object Unary(ExpressionType op, object operand, Expression node) => (op, operand) switch
    {
        (ExpressionType.Negate, int v) => unchecked(-v),
        (ExpressionType.NegateChecked, int v) => checked(-v),
        (ExpressionType.Negate, long v) => unchecked(-v),
        (ExpressionType.NegateChecked, long v) => checked(-v),
        (ExpressionType.Negate or ExpressionType.NegateChecked, double v) => -v,
        (ExpressionType.Negate or ExpressionType.NegateChecked, float v) => -v,
        (ExpressionType.Not or ExpressionType.OnesComplement, int v) => ~v,
        (ExpressionType.Not or ExpressionType.OnesComplement, long v) => ~v,
        (ExpressionType.Not or ExpressionType.OnesComplement, uint v) => ~v,
        (ExpressionType.Not or ExpressionType.OnesComplement, ulong v) => ~v,
        _ => throw ExpressionInterpreter.Unsupported(node, $"the operator {op} on {operand.GetType().Name} cannot be evaluated by the query interpreter"),
    };

    // Generic math keeps C#'s checked/unchecked semantics per width: checked(a + b) binds to the
    // type's checked operator. Shifts are only reached for int and long (see Binary).
    private static T Integer<T>(ExpressionType op, T a, T b, Expression node)
        where T : IBinaryInteger<T> => op switch
    {
        ExpressionType.Add => unchecked(a + b),
        ExpressionType.AddChecked => checked(a + b),
        ExpressionType.Subtract => unchecked(a - b),
        ExpressionType.SubtractChecked => checked(a - b),
        ExpressionType.Multiply => unchecked(a * b),
        ExpressionType.MultiplyChecked => checked(a * b),
        ExpressionType.Divide => a / b,
        ExpressionType.Modulo => a % b,
        ExpressionType.And => a & b,
        ExpressionType.Or => a | b,
        ExpressionType.ExclusiveOr => a ^ b,
        ExpressionType.LeftShift => a << int.CreateTruncating(b),
        ExpressionType.RightShift => a >> int.CreateTruncating(b),
        _ => throw ExpressionInterpreter.Unsupported(node, $"the operator {op} does not apply to integers"),
    };

    private static double Double(ExpressionType op, double a, double b, Expression node) => op switch
    {
        ExpressionType.Add => unchecked(a + b),
        ExpressionType.AddChecked => checked(a + b),
        ExpressionType.Subtract => unchecked(a - b),
        ExpressionType.SubtractChecked => checked(a - b),
        ExpressionType.Multiply => unchecked(a * b),
        ExpressionType.MultiplyChecked => checked(a * b),
        ExpressionType.Divide => a / b,
        ExpressionType.Modulo => a % b,
        _ => throw ExpressionInterpreter.Unsupported(node, $"the operator {op} does not apply to floating-point numbers"),
    };
}
