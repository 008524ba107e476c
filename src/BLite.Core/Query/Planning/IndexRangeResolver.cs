using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>Turns a plan's operand bounds into concrete, ordered, duplicate-free key ranges for one execution.</summary>
internal static class IndexRangeResolver
{
    /// <summary>An IN list whose cross product exceeds this many ranges is scanned as a full scan instead.</summary>
    private const int MaxRanges = 4096;

    public static bool TryResolve(QueryPlan plan, IReadOnlyList<BsonValue>? parameters, out IReadOnlyList<IndexValueRange> ranges)
    {
        ranges = [];
        if (plan.Index is null)
        {
            return false;
        }

        if (plan.Bounds is [{ Kind: IndexBoundKind.Equal or IndexBoundKind.In } only])
        {
            return TryResolveOneValueBound(plan, only, parameters, out ranges);
        }

        var prefixes = new List<BsonValue[]> { Array.Empty<BsonValue>() };
        RangeBound? lower = null;
        RangeBound? upper = null;
        foreach (var bound in plan.Bounds)
        {
            switch (bound.Kind)
            {
                case IndexBoundKind.Equal:
                    var value = bound.Values[0].Resolve(parameters);
                    if (!QueryPlanner.IsIndexableScalar(value))
                    {
                        return false;
                    }

                    prefixes = Extend(prefixes, [value]);
                    break;
                case IndexBoundKind.In:
                    if (!TryResolveInValues(bound.Values[0].Resolve(parameters), out var values))
                    {
                        return false;
                    }

                    if (values.Count == 0)
                    {
                        return true;
                    }

                    if ((long)prefixes.Count * values.Count > MaxRanges)
                    {
                        return false;
                    }

                    prefixes = Extend(prefixes, values);
                    break;
                case IndexBoundKind.Range:
                    if (!TryResolveSide(bound.Lower, bound.LowerInclusive, parameters, out lower)
                        || !TryResolveSide(bound.Upper, bound.UpperInclusive, parameters, out upper))
                    {
                        return false;
                    }

                    if (IsEmpty(lower, upper))
                    {
                        return true;
                    }

                    break;
                case IndexBoundKind.Prefix:
                    var prefix = bound.Prefix!.Value.Resolve(parameters);
                    if (prefix.Type != BsonType.String)
                    {
                        // StartsWith a non-string matches nothing.
                        return true;
                    }

                    var text = prefix.AsString;
                    lower = new RangeBound(prefix, true);
                    upper = StringSuccessor(text) is { } successor ? new RangeBound((BsonValue)successor, false) : null;
                    break;
            }
        }

        var result = new List<IndexValueRange>(prefixes.Count);
        foreach (var prefix in prefixes)
        {
            result.Add(IndexValueRange.Owning(prefix, lower, upper));
        }

        if (plan.Descending)
        {
            result.Reverse();
        }

        ranges = result;
        return true;
    }

    /// <summary>
    /// The ranges of a plan whose only bound is an equality or an IN on the index's first field
    /// (the usual lookup and join): one point range per value, without the cross product's lists.
    /// </summary>
    private static bool TryResolveOneValueBound(QueryPlan plan, IndexFieldBound bound, IReadOnlyList<BsonValue>? parameters, out IReadOnlyList<IndexValueRange> ranges)
    {
        ranges = [];
        if (bound.Kind == IndexBoundKind.Equal)
        {
            var value = bound.Values[0].Resolve(parameters);
            if (!QueryPlanner.IsIndexableScalar(value))
            {
                return false;
            }

            ranges = [IndexValueRange.Owning([value], null, null)];
            return true;
        }

        if (!TryResolveInValues(bound.Values[0].Resolve(parameters), out var values) || values.Count > MaxRanges)
        {
            return false;
        }

        var result = new IndexValueRange[values.Count];
        for (var i = 0; i < result.Length; i++)
        {
            result[plan.Descending ? result.Length - 1 - i : i] = IndexValueRange.Owning([values[i]], null, null);
        }

        ranges = result;
        return true;
    }

    private static List<BsonValue[]> Extend(List<BsonValue[]> prefixes, IReadOnlyList<BsonValue> values)
    {
        var extended = new List<BsonValue[]>(prefixes.Count * values.Count);
        foreach (var prefix in prefixes)
        {
            foreach (var value in values)
            {
                var next = new BsonValue[prefix.Length + 1];
                prefix.CopyTo(next, 0);
                next[^1] = value;
                extended.Add(next);
            }
        }

        return extended;
    }

    /// <summary>IN values sorted (so ranges come out in key order) and de-duplicated by value (so no document is found twice).</summary>
    private static bool TryResolveInValues(BsonValue list, out IReadOnlyList<BsonValue> values)
    {
        values = [];
        if (list.Type != BsonType.Array)
        {
            return false;
        }

        var items = list.AsArray;
        var sorted = new BsonValue[items.Count];
        for (var i = 0; i < sorted.Length; i++)
        {
            if (!QueryPlanner.IsIndexableScalar(items[i]))
            {
                return false;
            }

            sorted[i] = items[i];
        }

        Array.Sort(sorted, BsonValueComparer.Instance);
        var kept = 0;
        foreach (var item in sorted)
        {
            if (kept == 0 || BsonValueComparer.Instance.Compare(sorted[kept - 1], item) != 0)
            {
                sorted[kept++] = item;
            }
        }

        values = new ArraySegment<BsonValue>(sorted, 0, kept);
        return true;
    }

    private static bool TryResolveSide(FilterOperand? operand, bool inclusive, IReadOnlyList<BsonValue>? parameters, out RangeBound? side)
    {
        side = null;
        if (operand is not { } present)
        {
            return true;
        }

        var value = present.Resolve(parameters);
        if (!QueryPlanner.IsIndexableScalar(value))
        {
            return false;
        }

        side = new RangeBound(value, inclusive);
        return true;
    }

    private static bool IsEmpty(RangeBound? lower, RangeBound? upper)
    {
        if (lower is not { } l || upper is not { } u)
        {
            return false;
        }

        if (!BsonValueComparer.SameTypeClass(l.Value, u.Value))
        {
            return true;
        }

        var order = BsonValueComparer.Instance.Compare(l.Value, u.Value);
        return order > 0 || (order == 0 && !(l.Inclusive && u.Inclusive));
    }

    /// <summary>
    /// The smallest string greater than every string starting with <paramref name="prefix"/>:
    /// the prefix with its last incrementable char bumped. UTF-8 byte order equals code point
    /// order, which agrees with UTF-16 order except around surrogates, so surrogates and
    /// U+FFFF are never bumped (the range then stays open, within strings, and the prefix
    /// predicate stays in the residual either way).
    /// </summary>
    internal static string? StringSuccessor(string prefix)
    {
        for (var i = prefix.Length - 1; i >= 0; i--)
        {
            var c = prefix[i];
            if (c < 0xD7FF || (c >= 0xE000 && c < 0xFFFF))
            {
                return string.Concat(prefix.AsSpan(0, i), new string((char)(c + 1), 1));
            }
        }

        return null;
    }
}
