using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

internal sealed partial class QueryTranslator
{
    private QueryFilter MethodPredicate(MethodCallExpression call, ParameterExpression root)
    {
        var method = call.Method;
        if (method.DeclaringType == typeof(string))
        {
            return StringPredicate(call, root);
        }

        if (method.Name == nameof(Enumerable.Contains))
        {
            return ContainsPredicate(call, root);
        }

        if (method.DeclaringType == typeof(Enumerable) && method.Name is nameof(Enumerable.Any) or nameof(Enumerable.All))
        {
            return ElementPredicate(call, root);
        }

        if (method.Name == nameof(Equals) && method.ReturnType == typeof(bool))
        {
            var (left, right) = call.Object is null ? (call.Arguments[0], call.Arguments[1]) : (call.Object, call.Arguments[0]);
            return Comparison(Expression.Equal(StripToObject(left), StripToObject(right), false, null), root);
        }

        throw Unsupported(call, $"the method {method.DeclaringType?.Name}.{method.Name} has no equivalent on stored documents");
    }

    /// <summary>Equals(object) boxes its argument; comparing needs both sides at their own type.</summary>
    private static Expression StripToObject(Expression node) =>
        node is UnaryExpression { NodeType: ExpressionType.Convert } convert && convert.Type == typeof(object) ? convert.Operand : node;

    private QueryFilter StringPredicate(MethodCallExpression call, ParameterExpression root)
    {
        var method = call.Method;
        if (method.Name == nameof(string.IsNullOrEmpty) && TryPath(call.Arguments[0], root, out var emptyPath))
        {
            return QueryFilter.Or(
                QueryFilter.Eq(emptyPath, FilterOperand.FromConstant(BsonValue.Null)),
                QueryFilter.Eq(emptyPath, FilterOperand.FromConstant(string.Empty)));
        }

        if (method.Name == nameof(string.Equals) && method.IsStatic && call.Arguments.Count == 2)
        {
            return Comparison(Expression.Equal(call.Arguments[0], call.Arguments[1]), root);
        }

        if (method.Name == nameof(string.Equals) && method.IsStatic && call.Arguments.Count == 3)
        {
            // string.Equals(a, b, comparison): either side may be the field; a stored null equals nothing but null.
            var fieldFirst = !TryOperand(call.Arguments[0], out _);
            return StringMatch(call, null, fieldFirst ? call.Arguments[0] : call.Arguments[1], fieldFirst ? call.Arguments[1] : call.Arguments[0],
                call.Arguments[2], root);
        }

        var kind = method.Name switch
        {
            nameof(string.StartsWith) => StringMatchKind.StartsWith,
            nameof(string.EndsWith) => StringMatchKind.EndsWith,
            nameof(string.Contains) => StringMatchKind.Contains,
            nameof(string.Equals) when call.Arguments.Count is 1 or 2 => (StringMatchKind?)null,
            _ => throw Unsupported(call, $"the string method {method.Name} has no equivalent on stored documents"),
        };

        if (call.Object is null || call.Arguments[0].Type != typeof(string))
        {
            throw Unsupported(call, $"only string.{method.Name}(string) on a document field is supported");
        }

        if (call.Arguments.Count > 2)
        {
            throw Unsupported(call, $"this overload of string.{method.Name} is not supported");
        }

        return StringMatch(call, kind, call.Object, call.Arguments[0], call.Arguments.Count == 2 ? call.Arguments[1] : null, root);
    }

    /// <param name="kind">null for whole-string equality.</param>
    private QueryFilter StringMatch(MethodCallExpression call, StringMatchKind? kind, Expression field, Expression argument, Expression? comparison, ParameterExpression root)
    {
        var ignoreCase = comparison switch
        {
            null or ConstantExpression { Value: StringComparison.Ordinal } => false,
            ConstantExpression { Value: StringComparison.OrdinalIgnoreCase } => true,
            _ => throw Unsupported(call, "BLite compares strings ordinally; only StringComparison.Ordinal or OrdinalIgnoreCase (or no comparison argument) is supported"),
        };

        if (!TryPath(field, root, out var path) || !TryOperand(argument, out var operand))
        {
            throw Unsupported(call, "the string must be a document field and the argument a value that does not depend on the document");
        }

        if (ignoreCase)
        {
            return new StringMatchFilter(path, kind ?? StringMatchKind.Equal, operand, ignoreCase: true);
        }

        return kind is { } match ? new StringMatchFilter(path, match, operand) : QueryFilter.Eq(path, operand);
    }

    /// <summary>
    /// <c>values.Contains(o.Field)</c> is an IN; <c>o.Tags.Contains(value)</c> is an equality that
    /// any array element may satisfy. C# 14 binds <c>array.Contains(x)</c> to
    /// <c>MemoryExtensions.Contains(ReadOnlySpan&lt;T&gt;, T)</c>, whose span conversion is looked through.
    /// </summary>
    private QueryFilter ContainsPredicate(MethodCallExpression call, ParameterExpression root)
    {
        Expression collection;
        Expression item;
        if (call.Object is not null && call.Arguments.Count == 1)
        {
            (collection, item) = (call.Object, call.Arguments[0]);
        }
        else if (call.Object is null && (call.Arguments.Count == 2 || (call.Arguments.Count == 3 && call.Arguments[2] is ConstantExpression { Value: null })))
        {
            (collection, item) = (UnwrapSpan(call.Arguments[0]), call.Arguments[1]);
        }
        else
        {
            throw Unsupported(call, "Contains with a custom comparer is not supported");
        }

        if (TryPath(item, root, out var path) && TryOperand(collection, out var list, ParameterUse.List))
        {
            return QueryFilter.In(path, list);
        }

        if (TryPath(collection, root, out var arrayPath) && IsCollection(collection.Type) && TryOperand(item, out var value))
        {
            return QueryFilter.Eq(arrayPath, value);
        }

        throw Unsupported(call, "Contains needs a list of values and a document field (or a document array and a value)");
    }

    private static Expression UnwrapSpan(Expression node) => ExpressionParameterizer.SpanConversionOperand(node) ?? node;

    private QueryFilter ElementPredicate(MethodCallExpression call, ParameterExpression root)
    {
        if (!TryPath(call.Arguments[0], root, out var path))
        {
            throw Unsupported(call, $"{call.Method.Name} must be applied to an array field of the document");
        }

        if (call.Arguments.Count == 1)
        {
            return call.Method.Name == nameof(Enumerable.Any)
                ? QueryFilter.ElemMatch(path, QueryFilter.All)
                : QueryFilter.All;
        }

        if (call.Arguments[1] is not LambdaExpression lambda)
        {
            throw Unsupported(call, "the element condition must be a lambda");
        }

        var element = Predicate(lambda.Body, lambda.Parameters[0]);
        return call.Method.Name == nameof(Enumerable.Any)
            ? QueryFilter.ElemMatch(path, element)
            : Negate(QueryFilter.ElemMatch(path, Negate(element)));
    }

    private FieldPath TranslateSortPath(LambdaExpression lambda)
    {
        if (!TryPath(lambda.Body, lambda.Parameters[0], out var path) || path.IsSelf)
        {
            throw Unsupported(lambda, "an ordering key must be a stored document field");
        }

        return path;
    }
}
