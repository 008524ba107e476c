using System.Linq.Expressions;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

/// <summary>
/// <c>o.Lines.Sum(l => l.Quantity)</c>, <c>o.Lines.Max(l => l.Price * l.Quantity)</c>,
/// <c>o.Scores.Average()</c>, <c>o.Lines.Count(l => l.Qty > 2)</c> in a projection or a filter:
/// Sum, Min, Max and Average over a stored array, with a selector made of the item's stored fields,
/// literals and captured values (arithmetic and computed members allowed), and Count with an item
/// condition, computed on the raw items by an <see cref="ArrayAggregateValue"/>. The order is never built.
/// </summary>
internal sealed partial class QueryTranslator
{
    /// <summary>
    /// Literals and captured values in the selector (<c>l.Qty * rate</c>) are parameter slots: a
    /// filter binds them when it is built, a projection's reader when it is built for the execution.
    /// </summary>
    private bool TryArrayAggregate(MethodCallExpression call, ParameterExpression root, out ValueExpression aggregate)
    {
        aggregate = null!;
        if (call.Method.DeclaringType != typeof(Enumerable) || call.Arguments.Count is < 1 or > 2
            || !TryPath(call.Arguments[0], root, out var array, throwIfNotStored: false) || array.IsSelf)
        {
            return false;
        }

        if (call.Method.Name == nameof(Enumerable.Count))
        {
            return call.Arguments.Count == 2 && TryCountOverArray(call, array, out aggregate);
        }

        if (ArrayAggregateOf(call.Method.Name) is not { } kind)
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
        if (NumericKindOf(elementType) is not { } numeric || !TryValue(elementBody, item, out var element))
        {
            return false;
        }

        aggregate = ValueExpression.OverArray(kind, array, element, numeric, Nullable.GetUnderlyingType(elementType) is not null);
        return true;
    }

    /// <summary><c>o.Lines.Count(l => l.Qty > 2)</c>: the items passing the condition, counted on the raw items (the condition is an element match's).</summary>
    private bool TryCountOverArray(MethodCallExpression call, FieldPath array, out ValueExpression aggregate)
    {
        aggregate = null!;
        if (call.Arguments[1] is not LambdaExpression { Parameters.Count: 1 } condition)
        {
            return false;
        }

        try
        {
            aggregate = ValueExpression.CountOverArray(array, Predicate(condition.Body, condition.Parameters[0]));
            return true;
        }
        catch (NotSupportedException)
        {
            // A condition with no raw-bytes form: the caller keeps the in-memory path (or names the construct).
            return false;
        }
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
}
