namespace BLite.Core.Query;

/// <summary>
/// Chooses how to run a <see cref="DocumentQuery"/> given the indexes a collection has. The
/// planner works on the filter's shape only (no statistics), so one plan serves every execution
/// of a cached query. Rules and scores are listed in docs/query.md ("Planner rules").
/// </summary>
internal static partial class QueryPlanner
{
    /// <summary>Skip + take at or below this counts as "small": reading in index order and stopping early beats sorting.</summary>
    public const long SmallTakeLimit = 1000;

    private const int UniqueEqualityScore = 900;
    private const int EqualityScore = 600;
    private const int InScore = 500;
    private const int RangeScore = 400;
    private const int OneSidedRangeScore = 350;
    private const int PrefixScore = 300;
    private const int PerEqualityField = 10;
    private const int TrailingRangeBonus = 5;
    private const int OrderWithSmallTakeBonus = 450;
    private const int OrderBonus = 20;
    private const int PrimaryKeyBonus = 1;

    /// <param name="query">The query shape to plan.</param>
    /// <param name="indexes">The collection's indexes; include <see cref="IndexDescriptor.PrimaryKey"/> for the primary key.</param>
    public static QueryPlan Plan(DocumentQuery query, IReadOnlyList<IndexDescriptor> indexes)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(indexes);

        var conjuncts = Conjuncts(query.Filter);
        var conditions = CollectConditions(conjuncts);
        var best = new QueryPlan(query, PlanStrategy.FullScan, null, [], false, Residual(conjuncts, new HashSet<QueryFilter>()), query.Sort.Count > 0, 0);
        foreach (var index in indexes)
        {
            ArgumentNullException.ThrowIfNull(index, nameof(indexes));
            var candidate = TryPlanIndex(query, index, conjuncts, conditions);
            if (candidate is not null && candidate.Score > best.Score)
            {
                best = candidate;
            }
        }

        return best;
    }

    private static QueryPlan? TryPlanIndex(DocumentQuery query, IndexDescriptor index, List<QueryFilter> conjuncts, List<Condition> conditions)
    {
        var bounds = new List<IndexFieldBound>();
        var consumed = new HashSet<QueryFilter>(ReferenceEqualityComparer.Instance);
        var usedIn = false;
        foreach (var field in index.Fields)
        {
            if (Find(conditions, field, ConditionKind.Equal) is { } equal)
            {
                bounds.Add(new IndexFieldBound(field, IndexBoundKind.Equal, [equal.Operand]));
                Consume(equal, consumed);
                continue;
            }

            if (!usedIn && Find(conditions, field, ConditionKind.In) is { } inCondition)
            {
                bounds.Add(new IndexFieldBound(field, IndexBoundKind.In, [inCondition.Operand]));
                Consume(inCondition, consumed);
                usedIn = true;
                continue;
            }

            if (TryBuildRange(conditions, field, index.MultiKey) is { } range)
            {
                bounds.Add(range);
            }
            else if (Find(conditions, field, ConditionKind.Prefix) is { } prefix)
            {
                bounds.Add(new IndexFieldBound(field, IndexBoundKind.Prefix, []) { Prefix = prefix.Operand });
            }

            break;
        }

        if (index.Sparse && bounds.Count == 0)
        {
            return null;
        }

        var servesOrder = TryServeOrder(query.Sort, index, bounds, out var descending);
        var strategy = StrategyOf(index, bounds);
        var score = BaseScore(strategy, bounds);
        if (servesOrder && query.Sort.Count > 0)
        {
            score += IsSmallTake(query) ? OrderWithSmallTakeBonus : OrderBonus;
        }

        if (strategy == PlanStrategy.Order && (!servesOrder || !IsSmallTake(query)))
        {
            return null;
        }

        if (index.IsPrimaryKey && score > 0)
        {
            score += PrimaryKeyBonus;
        }

        if (index.MultiKey)
        {
            consumed.Clear();
        }

        var residual = Residual(conjuncts, consumed);
        // A multikey index walks documents by their smallest (or largest) element, which is the sort
        // key, but may meet them again later: the executor still sorts (a top-N heap) and uses the
        // order only to stop early.
        return new QueryPlan(query, strategy, index, bounds, descending, residual, query.Sort.Count > 0 && (!servesOrder || index.MultiKey), score);
    }

    private static Condition? Find(List<Condition> conditions, FieldPath field, ConditionKind kind)
    {
        foreach (var condition in conditions)
        {
            if (condition.Kind == kind && condition.Path.Equals(field))
            {
                return condition;
            }
        }

        return null;
    }

    private static void Consume(Condition condition, HashSet<QueryFilter> consumed)
    {
        if (condition.Removable)
        {
            consumed.Add(condition.Source);
        }
    }

    /// <summary>
    /// On a multikey index only one side is used: each side may be satisfied by a different
    /// element of the same array, so intersecting them would lose matches.
    /// </summary>
    private static IndexFieldBound? TryBuildRange(List<Condition> conditions, FieldPath field, bool multiKey)
    {
        var lower = Tightest(conditions, field, ConditionKind.Lower);
        var upper = Tightest(conditions, field, ConditionKind.Upper);
        if (multiKey && lower is not null)
        {
            upper = null;
        }

        if (lower is null && upper is null)
        {
            return null;
        }

        // Range predicates stay in the residual: encoding a numeric bound into another key class
        // (a double bound over decimal keys) may widen the scan, and the residual check is cheap.
        return new IndexFieldBound(field, IndexBoundKind.Range, [])
        {
            Lower = lower?.Operand,
            LowerInclusive = lower?.Inclusive ?? false,
            Upper = upper?.Operand,
            UpperInclusive = upper?.Inclusive ?? false,
        };
    }

    /// <summary>Among constant bounds the tightest wins; a parameter bound is taken as found (its value is unknown here).</summary>
    private static Condition? Tightest(List<Condition> conditions, FieldPath field, ConditionKind kind)
    {
        Condition? best = null;
        foreach (var condition in conditions)
        {
            if (condition.Kind != kind || !condition.Path.Equals(field))
            {
                continue;
            }

            if (best is null)
            {
                best = condition;
                continue;
            }

            if (best.Operand.IsParameter || condition.Operand.IsParameter
                || !BsonValueComparer.SameTypeClass(best.Operand.Constant, condition.Operand.Constant))
            {
                continue;
            }

            var order = BsonValueComparer.Instance.Compare(condition.Operand.Constant, best.Operand.Constant);
            var tighter = kind == ConditionKind.Lower ? order > 0 : order < 0;
            if (tighter || (order == 0 && !condition.Inclusive))
            {
                best = condition;
            }
        }

        return best;
    }

    /// <summary>
    /// The index serves the order when, after dropping sort keys pinned by equality bounds, the
    /// remaining keys are the next index fields in order, all in one direction.
    /// </summary>
    private static bool TryServeOrder(IReadOnlyList<SortKey> sort, IndexDescriptor index, List<IndexFieldBound> bounds, out bool descending)
    {
        descending = false;
        var equalityCount = 0;
        while (equalityCount < bounds.Count && bounds[equalityCount].Kind == IndexBoundKind.Equal)
        {
            equalityCount++;
        }

        var position = equalityCount;
        bool? direction = null;
        foreach (var key in sort)
        {
            if (IsPinned(key.Path, bounds, equalityCount))
            {
                continue;
            }

            // An IN on the first unpinned field still yields that field in order: its ranges are
            // resolved in value order, one after the other.
            if (position >= index.Fields.Count || !index.Fields[position].Equals(key.Path)
                || (direction is { } d && d != key.Descending))
            {
                return false;
            }

            direction = key.Descending;
            position++;
        }

        descending = direction ?? false;
        return true;
    }

    private static bool IsPinned(FieldPath path, List<IndexFieldBound> bounds, int equalityCount)
    {
        for (var i = 0; i < equalityCount; i++)
        {
            if (bounds[i].Path.Equals(path))
            {
                return true;
            }
        }

        return false;
    }

    private static PlanStrategy StrategyOf(IndexDescriptor index, List<IndexFieldBound> bounds)
    {
        if (bounds.Count == 0)
        {
            return PlanStrategy.Order;
        }

        var allEqual = bounds.TrueForAll(b => b.Kind == IndexBoundKind.Equal);
        if (allEqual && index.Unique && bounds.Count == index.Fields.Count)
        {
            return PlanStrategy.UniqueEquality;
        }

        if (bounds.Exists(b => b.Kind == IndexBoundKind.In))
        {
            return PlanStrategy.In;
        }

        return bounds[0].Kind switch
        {
            IndexBoundKind.Equal => PlanStrategy.Equality,
            IndexBoundKind.Range => PlanStrategy.Range,
            _ => PlanStrategy.Prefix,
        };
    }

    private static int BaseScore(PlanStrategy strategy, List<IndexFieldBound> bounds)
    {
        var leadingPoints = bounds.Count(b => b.Kind is IndexBoundKind.Equal or IndexBoundKind.In);
        var trailing = bounds.Count > leadingPoints ? TrailingRangeBonus : 0;
        return strategy switch
        {
            PlanStrategy.UniqueEquality => UniqueEqualityScore,
            PlanStrategy.Equality => EqualityScore + PerEqualityField * leadingPoints + trailing,
            PlanStrategy.In => InScore + PerEqualityField * leadingPoints + trailing,
            PlanStrategy.Range => bounds[0].Lower is not null && bounds[0].Upper is not null ? RangeScore : OneSidedRangeScore,
            PlanStrategy.Prefix => PrefixScore,
            _ => 0,
        };
    }

    private static bool IsSmallTake(DocumentQuery query)
    {
        if (query.Take is not { } take)
        {
            return false;
        }

        if (take.IsParameter || query.Skip is { IsParameter: true })
        {
            return true;
        }

        var skipCount = query.Skip is { } skip && BsonNumbers.TryGetInt64(skip.Constant, out var s) ? s : 0;
        return BsonNumbers.TryGetInt64(take.Constant, out var t) && t + skipCount <= SmallTakeLimit;
    }

    internal static QueryFilter? Residual(List<QueryFilter> conjuncts, IReadOnlySet<QueryFilter> consumed)
    {
        var remaining = conjuncts.FindAll(c => !consumed.Contains(c));
        return remaining.Count switch
        {
            0 => null,
            1 => remaining[0],
            _ => new AndFilter(remaining),
        };
    }
}
