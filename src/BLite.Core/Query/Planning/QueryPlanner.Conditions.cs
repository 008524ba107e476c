using BLite.Bson;

namespace BLite.Core.Query;

internal static partial class QueryPlanner
{
    private enum ConditionKind
    {
        Equal,
        In,
        Lower,
        Upper,
        Prefix,
    }

    /// <summary>
    /// One index-usable fact the filter guarantees about a path. <see cref="Removable"/> says the
    /// source predicate is exactly what the bound expresses, so a plan using it may drop the
    /// predicate from its residual (never for element matches, whose conditions must hold on one
    /// element, nor for prefixes, whose computed upper bound may be looser than the predicate).
    /// </summary>
    private sealed record Condition(QueryFilter Source, FieldPath Path, ConditionKind Kind, FilterOperand Operand, bool Inclusive, bool Removable);

    /// <summary>The top-level conjuncts of a filter (nested ANDs flattened).</summary>
    private static List<QueryFilter> Conjuncts(QueryFilter? filter)
    {
        var conjuncts = new List<QueryFilter>();
        if (filter is not null)
        {
            AddConjuncts(filter, conjuncts);
        }

        return conjuncts;
    }

    private static void AddConjuncts(QueryFilter filter, List<QueryFilter> conjuncts)
    {
        if (filter is AndFilter all)
        {
            foreach (var inner in all.Filters)
            {
                AddConjuncts(inner, conjuncts);
            }
        }
        else
        {
            conjuncts.Add(filter);
        }
    }

    private static List<Condition> CollectConditions(List<QueryFilter> conjuncts)
    {
        var conditions = new List<Condition>();
        foreach (var conjunct in conjuncts)
        {
            AddConditions(conjunct, conjunct, FieldPath.Self, removable: true, conditions);
        }

        return conditions;
    }

    private static void AddConditions(QueryFilter filter, QueryFilter source, FieldPath prefix, bool removable, List<Condition> conditions)
    {
        switch (filter)
        {
            case AndFilter all:
                foreach (var inner in all.Filters)
                {
                    AddConditions(inner, inner, prefix, removable, conditions);
                }

                break;
            case ComparisonFilter comparison when IsIndexableScalarOperand(comparison.Value):
                var path = prefix.Append(comparison.Path);
                switch (comparison.Operator)
                {
                    case ComparisonOperator.Eq:
                        conditions.Add(new Condition(source, path, ConditionKind.Equal, comparison.Value, true, removable));
                        break;
                    case ComparisonOperator.Gt or ComparisonOperator.Gte:
                        conditions.Add(new Condition(source, path, ConditionKind.Lower, comparison.Value, comparison.Operator == ComparisonOperator.Gte, removable));
                        break;
                    case ComparisonOperator.Lt or ComparisonOperator.Lte:
                        conditions.Add(new Condition(source, path, ConditionKind.Upper, comparison.Value, comparison.Operator == ComparisonOperator.Lte, removable));
                        break;
                }

                break;
            case InFilter { Negated: false } inFilter when IsIndexableListOperand(inFilter.Values):
                conditions.Add(new Condition(source, prefix.Append(inFilter.Path), ConditionKind.In, inFilter.Values, true, removable));
                break;
            case StringMatchFilter { Kind: StringMatchKind.StartsWith, IgnoreCase: false } startsWith
                when startsWith.Value.IsParameter || startsWith.Value.Constant.Type == BsonType.String:
                conditions.Add(new Condition(source, prefix.Append(startsWith.Path), ConditionKind.Prefix, startsWith.Value, true, false));
                break;
            case ElemMatchFilter elemMatch:
                AddConditions(elemMatch.ElementFilter, source, prefix.Append(elemMatch.Path), removable: false, conditions);
                break;
            case OrFilter orFilter when TryMergeEqualities(orFilter) is { } merged:
                conditions.Add(new Condition(source, prefix.Append(merged.Path), ConditionKind.In, merged.Values, true, removable));
                break;
        }
    }

    /// <summary>An OR of constant equalities / INs on one path is an IN on that path.</summary>
    private static InFilter? TryMergeEqualities(OrFilter any)
    {
        if (any.Filters.Count == 0)
        {
            return null;
        }

        FieldPath? path = null;
        var values = new List<BsonValue>();
        foreach (var branch in any.Filters)
        {
            switch (branch)
            {
                case ComparisonFilter { Operator: ComparisonOperator.Eq, Value.IsParameter: false } eq
                    when IsIndexableScalar(eq.Value.Constant) && (path is null || path.Equals(eq.Path)):
                    path = eq.Path;
                    values.Add(eq.Value.Constant);
                    break;
                case InFilter { Negated: false, Values.IsParameter: false } inFilter
                    when IsIndexableListOperand(inFilter.Values) && (path is null || path.Equals(inFilter.Path)):
                    path = inFilter.Path;
                    values.AddRange(inFilter.Values.Constant.AsArray);
                    break;
                default:
                    return null;
            }
        }

        return new InFilter(path!, FilterOperand.FromConstant(new BsonArray(values)), negated: false);
    }

    private static bool IsIndexableScalarOperand(FilterOperand operand) => operand.IsParameter || IsIndexableScalar(operand.Constant);

    private static bool IsIndexableListOperand(FilterOperand operand)
    {
        if (operand.IsParameter)
        {
            return true;
        }

        if (operand.Constant.Type != BsonType.Array)
        {
            return false;
        }

        foreach (var item in operand.Constant.AsArray)
        {
            if (!IsIndexableScalar(item))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Null is never looked up in an index: <c>Eq null</c> also matches documents lacking the
    /// field, which a sparse index does not hold. Arrays and documents compare as whole values,
    /// which element-wise index entries cannot answer. The MongoDB interop types without a key
    /// component are answered by a scan.
    /// </summary>
    internal static bool IsIndexableScalar(BsonValue value) => value.Type switch
    {
        BsonType.Null or BsonType.Array or BsonType.Document => false,
        BsonType.Undefined or BsonType.Regex or BsonType.DbPointer or BsonType.JavaScript or BsonType.JavaScriptWithScope
            or BsonType.Symbol or BsonType.UtcDateTime => false,
        _ => true,
    };
}
