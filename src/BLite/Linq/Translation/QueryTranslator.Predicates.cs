using System.Collections;
using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

internal sealed partial class QueryTranslator
{
    private static readonly QueryFilter MatchNothing = QueryFilter.Or();

    private QueryFilter TranslatePredicate(LambdaExpression lambda) => Predicate(lambda.Body, lambda.Parameters[0]);

    private QueryFilter Predicate(Expression node, ParameterExpression root)
    {
        switch (node)
        {
            case ConstantExpression { Value: bool constant }:
                return constant ? QueryFilter.All : MatchNothing;
            case BinaryExpression { NodeType: ExpressionType.AndAlso or ExpressionType.And } both when both.Type == typeof(bool):
                return Combine(true, Predicate(both.Left, root), Predicate(both.Right, root));
            case BinaryExpression { NodeType: ExpressionType.OrElse or ExpressionType.Or } either when either.Type == typeof(bool):
                return Combine(false, Predicate(either.Left, root), Predicate(either.Right, root));
            case UnaryExpression { NodeType: ExpressionType.Not } negation when negation.Type == typeof(bool):
                if (TryPath(negation.Operand, root, out var negatedFlag))
                {
                    return QueryFilter.Eq(negatedFlag, FilterOperand.FromConstant(false));
                }

                return Negate(Predicate(negation.Operand, root));
            case BinaryExpression { NodeType: ExpressionType.Equal or ExpressionType.NotEqual or ExpressionType.LessThan
                or ExpressionType.LessThanOrEqual or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual } comparison:
                return Comparison(comparison, root);
            case MethodCallExpression call:
                return MethodPredicate(call, root);
            case MemberExpression { Member.Name: "HasValue" } hasValue when hasValue.Expression is not null
                && Nullable.GetUnderlyingType(hasValue.Expression.Type) is not null && TryPath(hasValue.Expression, root, out var nullablePath):
                return QueryFilter.Ne(nullablePath, FilterOperand.FromConstant(BsonValue.Null));
            default:
                if ((node.Type == typeof(bool) || node.Type == typeof(bool?)) && TryPath(node, root, out var flag))
                {
                    return QueryFilter.Eq(flag, FilterOperand.FromConstant(true));
                }

                throw Unsupported(node, "this condition has no equivalent on stored documents");
        }
    }

    private static QueryFilter Combine(bool and, QueryFilter left, QueryFilter right)
    {
        var identity = and ? QueryFilter.All : MatchNothing;
        var absorbing = and ? MatchNothing : QueryFilter.All;
        if (ReferenceEquals(left, absorbing) || ReferenceEquals(right, absorbing))
        {
            return absorbing;
        }

        if (ReferenceEquals(left, identity))
        {
            return right;
        }

        if (ReferenceEquals(right, identity))
        {
            return left;
        }

        return and ? QueryFilter.And(left, right) : QueryFilter.Or(left, right);
    }

    private static QueryFilter Negate(QueryFilter filter) =>
        ReferenceEquals(filter, QueryFilter.All) ? MatchNothing
        : ReferenceEquals(filter, MatchNothing) ? QueryFilter.All
        : filter is NotFilter negated ? negated.Filter
        : QueryFilter.Not(filter);

    private QueryFilter Comparison(BinaryExpression comparison, ParameterExpression root)
    {
        var op = comparison.NodeType switch
        {
            ExpressionType.Equal => ComparisonOperator.Eq,
            ExpressionType.NotEqual => ComparisonOperator.Ne,
            ExpressionType.LessThan => ComparisonOperator.Lt,
            ExpressionType.LessThanOrEqual => ComparisonOperator.Lte,
            ExpressionType.GreaterThan => ComparisonOperator.Gt,
            _ => ComparisonOperator.Gte,
        };

        if (ExpressionParameterizer.IsCompareResultTest(comparison, out var callIsLeft))
        {
            return StringCompareTest(comparison, callIsLeft ? op : Flip(op), callIsLeft, root);
        }

        if (comparison.Method is { } method && method.DeclaringType != typeof(decimal) && method.DeclaringType != typeof(string)
            && method.DeclaringType != typeof(DateTime) && method.DeclaringType != typeof(DateTimeOffset)
            && method.DeclaringType != typeof(TimeSpan) && method.DeclaringType != typeof(DateOnly)
            && method.DeclaringType != typeof(TimeOnly) && method.DeclaringType != typeof(Guid)
            && method.DeclaringType != typeof(ObjectId)
            && !(_resolver is IQueryValueConverter converter && converter.Converts(method.DeclaringType!) && op is ComparisonOperator.Eq or ComparisonOperator.Ne)
            && !IsNullTestOfNullableStruct(comparison, op))
        {
            throw Unsupported(comparison, $"the user-defined operator {method.DeclaringType?.Name}.{method.Name} has no stored equivalent");
        }

        return Compare(comparison, op, comparison.Left, comparison.Right, root);
    }

    private QueryFilter Compare(Expression node, ComparisonOperator op, Expression left, Expression right, ParameterExpression root)
    {
        var computed = HasComputedMember(left) || HasComputedMember(right);
        if (!computed && TryPath(left, root, out var path) && TryOperand(right, out var operand))
        {
            return new ComparisonFilter(path, op, operand);
        }

        if (!computed && TryPath(right, root, out path) && TryOperand(left, out operand))
        {
            return new ComparisonFilter(path, Flip(op), operand);
        }

        if (TryValue(left, root, out var leftValue) && TryValue(right, root, out var rightValue)
            && (leftValue is not OperandValue || rightValue is not OperandValue))
        {
            return new ExpressionFilter(leftValue, op, rightValue);
        }

        throw Unsupported(node, "one side must be computed from stored document fields and the other a value, or both from stored fields");
    }

    /// <summary>
    /// <c>x.Location == null</c> on a nullable struct with its own <c>==</c> (a record struct): the
    /// lifted operator is a null test when the value is null. A non-null value is refused when
    /// bound, as any value without a BSON equivalent is.
    /// </summary>
    private static bool IsNullTestOfNullableStruct(BinaryExpression comparison, ComparisonOperator op) =>
        op is ComparisonOperator.Eq or ComparisonOperator.Ne && comparison.IsLifted
        && Nullable.GetUnderlyingType(comparison.Left.Type) is not null && comparison.Left.Type == comparison.Right.Type
        && (IsNullValue(comparison.Left) || IsNullValue(comparison.Right));

    private static bool IsNullValue(Expression node) =>
        node is QueryParameterExpression or ConstantExpression { Value: null } or DefaultExpression;

    /// <summary>
    /// <c>string.Compare(a, b) op 0</c>, <c>string.CompareOrdinal(a, b) op 0</c> and
    /// <c>a.CompareTo(b) op 0</c> compare <c>a op b</c> ordinally, as EF Core translates them.
    /// </summary>
    private QueryFilter StringCompareTest(BinaryExpression comparison, ComparisonOperator op, bool callIsLeft, ParameterExpression root)
    {
        var call = (MethodCallExpression)(callIsLeft ? comparison.Left : comparison.Right);
        var zero = (ConstantExpression)(callIsLeft ? comparison.Right : comparison.Left);
        if ((int)zero.Value! != 0)
        {
            throw Unsupported(comparison, "a string comparison result can only be compared with 0");
        }

        var (left, right) = call.Object is null ? (call.Arguments[0], call.Arguments[1]) : (call.Object, call.Arguments[0]);
        if (call.Object is null && call.Arguments.Count != 2 || call.Object is not null && call.Arguments.Count != 1 || right.Type != typeof(string))
        {
            throw Unsupported(comparison, $"only string.{call.Method.Name} of two strings (no culture, comparison or range arguments) is supported");
        }

        return Compare(comparison, op, left, right, root);
    }

    private static ComparisonOperator Flip(ComparisonOperator op) => op switch
    {
        ComparisonOperator.Lt => ComparisonOperator.Gt,
        ComparisonOperator.Lte => ComparisonOperator.Gte,
        ComparisonOperator.Gt => ComparisonOperator.Lt,
        ComparisonOperator.Gte => ComparisonOperator.Lte,
        _ => op,
    };

    private bool TryOperand(Expression node, out FilterOperand operand, ParameterUse use = ParameterUse.Scalar)
    {
        node = StripConversions(node);
        switch (node)
        {
            case QueryParameterExpression parameter:
                _parameterUses[parameter.Index] = use;
                operand = FilterOperand.FromParameter(parameter.Index);
                return true;
            case ConstantExpression { Value: bool flag }:
                operand = FilterOperand.FromConstant(flag);
                return true;
            default:
                operand = default;
                return false;
        }
    }

    /// <summary>
    /// The field path a member chain rooted at <paramref name="root"/> stands for; conversions
    /// that keep the value (enum to its underlying type, nullable lifting, widening) are seen
    /// through, <c>.Value</c> of a nullable is skipped.
    /// </summary>
    private bool TryPath(Expression node, ParameterExpression root, out FieldPath path, bool throwIfNotStored = true)
    {
        path = FieldPath.Self;
        var members = new List<MemberExpression>();
        var current = StripConversions(node);
        while (current != root)
        {
            if (current is not MemberExpression { Expression: not null } member)
            {
                return false;
            }

            if (!(member.Member.Name == "Value" && Nullable.GetUnderlyingType(member.Expression.Type) is not null))
            {
                members.Add(member);
            }

            current = StripConversions(member.Expression);
        }

        var segments = new string[members.Count];
        for (var i = 0; i < members.Count; i++)
        {
            var member = members[members.Count - 1 - i];
            if (IsScalarOrCollection(member.Expression!.Type))
            {
                if (!throwIfNotStored)
                {
                    return false;
                }

                throw Unsupported(node, $"{member.Member.DeclaringType?.Name}.{member.Member.Name} is computed from a stored value, not a stored field itself");
            }

            if (!_resolver.TryGetFieldName(member.Expression!.Type, member.Member, out var name))
            {
                if (!throwIfNotStored)
                {
                    return false;
                }

                throw Unsupported(node, $"the member {member.Member.DeclaringType?.Name}.{member.Member.Name} is not stored in the document");
            }

            segments[i] = name;
        }

        path = FieldPath.FromSegments(segments);
        return true;
    }

    private static Expression StripConversions(Expression node)
    {
        while (node is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert
            && (convert.Method is null
                ? PreservesValue(convert.Operand.Type, convert.Type)
                : convert.Method.Name == "op_Implicit" && convert.Method.DeclaringType == typeof(decimal)))
        {
            node = convert.Operand;
        }

        return node;
    }

    private static bool PreservesValue(Type from, Type to)
    {
        from = Nullable.GetUnderlyingType(from) ?? from;
        to = Nullable.GetUnderlyingType(to) ?? to;
        if (from == to || to == typeof(object) || (from.IsEnum && Enum.GetUnderlyingType(from) == to) || (to.IsEnum && Enum.GetUnderlyingType(to) == from))
        {
            return true;
        }

        if (from.IsEnum)
        {
            from = Enum.GetUnderlyingType(from);
        }

        return Rank(from) is var f && Rank(to) is var t && f > 0 && t > f && (IsIntegral(from) || !IsIntegral(to));
    }

    private static bool IsIntegral(Type type) => Type.GetTypeCode(type) is >= TypeCode.Char and <= TypeCode.UInt64;

    /// <summary>Widening order used to accept implicit numeric conversions (signed/unsigned mixes are rejected by the checks).</summary>
    private static int Rank(Type type) => Type.GetTypeCode(type) switch
    {
        TypeCode.SByte or TypeCode.Byte => 1,
        TypeCode.Int16 or TypeCode.UInt16 or TypeCode.Char => 2,
        TypeCode.Int32 => 3,
        TypeCode.UInt32 => 4,
        TypeCode.Int64 => 5,
        TypeCode.Single => 6,
        TypeCode.Double => 7,
        _ => 0,
    };

    /// <summary>Members of these (string.Length, list.Count, DateTime.Year...) are computed, never stored.</summary>
    private static bool IsScalarOrCollection(Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        return type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(decimal) || type == typeof(DateTime)
            || type == typeof(DateTimeOffset) || type == typeof(TimeSpan) || type == typeof(DateOnly) || type == typeof(TimeOnly)
            || type == typeof(Guid) || IsCollection(type);
    }

    private static bool IsCollection(Type type) => type != typeof(string) && typeof(IEnumerable).IsAssignableFrom(type);

}
