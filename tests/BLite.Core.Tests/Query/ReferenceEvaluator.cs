using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>
/// The filter semantics of docs/query.md written the plain way, over <see cref="BsonDocument"/>
/// objects: the oracle that the raw-bytes evaluator and the planner are checked against.
/// </summary>
internal static class ReferenceEvaluator
{
    /// <summary>What a path reaches: values, or "missing" (null here).</summary>
    public static List<BsonValue?> Reach(BsonValue value, FieldPath path, bool expandLeafArrays)
    {
        var results = new List<BsonValue?>();
        Reach(value, path.Segments, 0, expandLeafArrays, results);
        return results;
    }

    private static void Reach(BsonValue value, IReadOnlyList<string> segments, int depth, bool expand, List<BsonValue?> results)
    {
        if (depth == segments.Count)
        {
            if (expand && value.IsArray)
            {
                results.AddRange(value.AsArray.Select(v => (BsonValue?)v));
            }

            results.Add(value);
            return;
        }

        if (value.IsDocument)
        {
            if (value.AsDocument.TryGetValue(segments[depth], out var child))
            {
                Reach(child, segments, depth + 1, expand, results);
            }
            else
            {
                results.Add(null);
            }

            return;
        }

        if (value.IsArray && value.AsArray.Count > 0)
        {
            foreach (var item in value.AsArray)
            {
                if (item.IsDocument)
                {
                    Reach(item, segments, depth, expand, results);
                }
                else
                {
                    results.Add(null);
                }
            }

            return;
        }

        results.Add(null);
    }

    public static bool Matches(QueryFilter filter, BsonValue value, IReadOnlyList<BsonValue>? parameters = null)
    {
        switch (filter)
        {
            case AndFilter all:
                return all.Filters.All(f => Matches(f, value, parameters));
            case OrFilter any:
                return any.Filters.Any(f => Matches(f, value, parameters));
            case NotFilter negation:
                return !Matches(negation.Filter, value, parameters);
            case ComparisonFilter { Operator: ComparisonOperator.Ne } ne:
                return !Matches(QueryFilter.Eq(ne.Path, ne.Value), value, parameters);
            case ComparisonFilter comparison:
                var constant = comparison.Value.Resolve(parameters);
                return Reach(value, comparison.Path, true).Any(c => Compare(c, comparison.Operator, constant));
            case InFilter inFilter:
                var list = inFilter.Values.Resolve(parameters).AsArray;
                var isIn = Reach(value, inFilter.Path, true).Any(c => list.Any(item => Compare(c, ComparisonOperator.Eq, item)));
                return inFilter.Negated ? !isIn : isIn;
            case ExistsFilter exists:
                return Reach(value, exists.Path, false).Any(c => c is not null) == exists.MustExist;
            case StringMatchFilter match:
                var needle = match.Value.Resolve(parameters);
                var stringComparison = match.IgnoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
                return needle.IsString && Reach(value, match.Path, true).Any(c => c is { IsString: true } s && match.Kind switch
                {
                    StringMatchKind.StartsWith => s.AsString.StartsWith(needle.AsString, stringComparison),
                    StringMatchKind.EndsWith => s.AsString.EndsWith(needle.AsString, stringComparison),
                    StringMatchKind.Equal => s.AsString.Equals(needle.AsString, stringComparison),
                    _ => s.AsString.Contains(needle.AsString, stringComparison),
                });
            case ElemMatchFilter elemMatch:
                return Reach(value, elemMatch.Path, false)
                    .Any(c => c is { IsArray: true } array && array.AsArray.Any(e => Matches(elemMatch.ElementFilter, e, parameters)));
            default:
                throw new InvalidOperationException(filter.GetType().Name);
        }
    }

    private static bool Compare(BsonValue? candidate, ComparisonOperator op, BsonValue constant)
    {
        if (constant.IsNull)
        {
            return op is ComparisonOperator.Eq or ComparisonOperator.Gte or ComparisonOperator.Lte && (candidate is null || candidate.Value.IsNull);
        }

        if (candidate is not { } value || !BsonValueComparer.SameTypeClass(value, constant))
        {
            return false;
        }

        var order = value.CompareTo(constant);
        return op switch
        {
            ComparisonOperator.Eq => order == 0,
            ComparisonOperator.Gt => order > 0,
            ComparisonOperator.Gte => order >= 0,
            ComparisonOperator.Lt => order < 0,
            _ => order <= 0,
        };
    }
}
