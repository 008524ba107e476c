using System.Linq.Expressions;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

/// <summary>
/// <c>o.Lines.Sum(l => l.Quantity)</c>, <c>o.Lines.Max(l => l.Price * l.Quantity)</c>,
/// <c>o.Scores.Average()</c> in a projection: Sum, Min, Max and Average over a stored array,
/// with a selector made of the item's stored fields (arithmetic and computed members allowed),
/// computed on the raw items by an <see cref="ArrayAggregateValue"/>. The order is never built.
/// </summary>
internal sealed partial class QueryTranslator
{
    /// <param name="parametersBound">
    /// True in a filter, whose evaluator binds the query's parameters; a projection is read without
    /// them, so there a selector using a literal or captured value (<c>l.Qty * 2</c>) stays in memory.
    /// </param>
    private bool TryArrayAggregate(MethodCallExpression call, ParameterExpression root, bool parametersBound, out ValueExpression aggregate)
    {
        aggregate = null!;
        if (call.Method.DeclaringType != typeof(Enumerable) || call.Arguments.Count is < 1 or > 2
            || ArrayAggregateOf(call.Method.Name) is not { } kind
            || !TryPath(call.Arguments[0], root, out var array, throwIfNotStored: false) || array.IsSelf)
        {
            return false;
        }

        Expression elementBody;
        ParameterExpression item;
        if (call.Arguments.Count == 2)
        {
            if (call.Arguments[1] is not LambdaExpression { Parameters.Count: 1 } selector)
            {
                return false;
            }

            item = selector.Parameters[0];
            elementBody = selector.Body;
        }
        else
        {
            item = Expression.Parameter(call.Method.GetParameters()[0].ParameterType.GetGenericArguments()[0], "item");
            elementBody = item;
        }

        var elementType = elementBody.Type;
        if (NumericKindOf(elementType) is not { } numeric
            || !TryValue(elementBody, item, out var element) || (!parametersBound && UsesQueryParameter(element)))
        {
            return false;
        }

        aggregate = ValueExpression.OverArray(kind, array, element, numeric, Nullable.GetUnderlyingType(elementType) is not null);
        return true;
    }

    private static ArrayAggregate? ArrayAggregateOf(string method) => method switch
    {
        nameof(Enumerable.Sum) => ArrayAggregate.Sum,
        nameof(Enumerable.Min) => ArrayAggregate.Min,
        nameof(Enumerable.Max) => ArrayAggregate.Max,
        nameof(Enumerable.Average) => ArrayAggregate.Average,
        _ => null,
    };

    private static NumericKind? NumericKindOf(Type type) => Type.GetTypeCode(Nullable.GetUnderlyingType(type) ?? type) switch
    {
        TypeCode.Int32 => NumericKind.Int32,
        TypeCode.Int64 => NumericKind.Int64,
        TypeCode.Double => NumericKind.Double,
        TypeCode.Decimal => NumericKind.Decimal,
        _ => null,
    };

    private static bool UsesQueryParameter(ValueExpression value) => value switch
    {
        OperandValue operand => operand.Operand.IsParameter,
        ComputedValue computed => UsesQueryParameter(computed.Argument),
        ArithmeticValue arithmetic => UsesQueryParameter(arithmetic.Left) || UsesQueryParameter(arithmetic.Right),
        ArrayAggregateValue nested => UsesQueryParameter(nested.Element),
        _ => false,
    };
}
