using System.Collections;
using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>
/// <c>GroupBy(key).Select(g => ...)</c> grouped by an <see cref="IGroupingQuerySource"/>: the key is
/// one pushed-down value and the selector uses the group only as <c>g.Key</c>, <c>g.Count()</c>,
/// <c>g.LongCount()</c> and <c>g.Sum / Average / Min / Max(x => value)</c> of one pushed-down value.
/// The selector is rewritten to read those from a row (slot 0 the key, then one slot per
/// aggregate) and runs in the interpreter, so whatever it computes around them works as before.
/// The totals become LINQ's results with LINQ's rules (<see cref="SourceAggregate"/> for Sum and
/// Average); a group holding values LINQ would refuse, or whose partial sums might overflow where
/// the total does not, makes the caller group the values itself, so results and errors are the
/// embedded engine's. Other selectors (a condition in <c>g.Count(x => ...)</c>, a computation in
/// an aggregate's selector, <c>g.First()</c>) keep grouping the returned values in memory.
/// </summary>
internal sealed class SourceGrouping
{
    private readonly LambdaExpression _selector;
    private readonly string _keyName;
    private readonly Item[] _items;

    private SourceGrouping(GroupQuery query, LambdaExpression selector, string keyName, Item[] items)
    {
        Query = query;
        _selector = selector;
        _keyName = keyName;
        _items = items;
    }

    public GroupQuery Query { get; }

    /// <summary>The grouping a source could run for this query, or null when its shape keeps the in-memory grouping.</summary>
    public static SourceGrouping? Create(TranslatedQuery translated)
    {
        if (translated.Vector is not null || translated.Projection is not { PostOperations.Count: >= 2 } projection
            || projection.PostOperations[0] is not { Kind: PostOperationKind.GroupBy, Lambda.Body: ProjectedFieldExpression key }
            || projection.PostOperations[1] is not { Kind: PostOperationKind.Select, Lambda: { Parameters.Count: 1 } select }
            || key.Type != projection.Types[key.Slot])
        {
            return null;
        }

        var row = Expression.Parameter(typeof(object[]), select.Parameters[0].Name);
        var rewriter = new SelectorRewriter(select.Parameters[0], row, key.Type, projection);
        var body = rewriter.Visit(select.Body);
        if (rewriter.Failed)
        {
            return null;
        }

        var query = new GroupQuery(projection.Values[key.Slot], key.Type, rewriter.Items.Select(i => i.Aggregate).ToArray());
        return new SourceGrouping(query, Expression.Lambda<Func<object?[], object?>>(Expression.Convert(body, typeof(object)), row), projection.Names[key.Slot], rewriter.Items.ToArray());
    }

    /// <summary>The selector's results over the groups of this execution, or null when the source cannot group it or a group needs the values themselves.</summary>
    public static GroupedRows? TryRows<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters) =>
        source is IGroupingQuerySource grouping && translated.Grouping is { } plan
        && grouping.Group(translated.Query, parameters, plan.Query) is { } groups
            ? plan.Rows(groups, values)
            : null;

    public static async ValueTask<GroupedRows?> TryRowsAsync<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, object?[] values, BsonValue[] parameters,
        CancellationToken cancellationToken) =>
        source is IGroupingQuerySource grouping && translated.Grouping is { } plan
        && await grouping.GroupAsync(translated.Query, parameters, plan.Query, cancellationToken).ConfigureAwait(false) is { } groups
            ? plan.Rows(groups, values)
            : null;

    /// <summary>
    /// A terminal Min or Max of one pushed-down value that the path's order does not answer (a
    /// computed value, or a path after an OrderBy): one group holding every matching document, so
    /// one row crosses the wire. False when the source cannot total it or the values need LINQ's
    /// own reading (the caller then streams them).
    /// </summary>
    public static bool TryExtreme<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, BsonValue[] parameters, out object? result)
    {
        result = null;
        return source is IGroupingQuerySource grouping && Extreme(translated) is { } query
            && grouping.Group(translated.Query, parameters, query) is { } groups && ExtremeOf(translated, query, groups, out result);
    }

    public static async ValueTask<(bool Done, object? Result)> TryExtremeAsync<TRoot>(IDocumentQuerySource<TRoot> source, TranslatedQuery translated, BsonValue[] parameters,
        CancellationToken cancellationToken)
    {
        if (source is IGroupingQuerySource grouping && Extreme(translated) is { } query
            && await grouping.GroupAsync(translated.Query, parameters, query, cancellationToken).ConfigureAwait(false) is { } groups
            && ExtremeOf(translated, query, groups, out var result))
        {
            return (true, result);
        }

        return (false, null);
    }

    private static GroupQuery? Extreme(TranslatedQuery translated)
    {
        if (translated.Terminal is not (QueryTerminal.Min or QueryTerminal.Max) || SourceAggregate.SingleValue(translated) is not { } value
            || (value is FieldValue && translated.Query.Take is not null))
        {
            return null;
        }

        var kind = translated.Terminal == QueryTerminal.Min ? GroupAggregateKind.Min : GroupAggregateKind.Max;
        return new GroupQuery(ValueExpression.Value(FilterOperand.FromConstant(0)), typeof(int), [new GroupAggregate(kind, value, translated.AggregateValueType, default)]);
    }

    private static bool ExtremeOf(TranslatedQuery translated, GroupQuery query, IReadOnlyList<GroupTotals> groups, out object? result)
    {
        var aggregate = query.Aggregates[0];
        result = null;
        if (groups.Count == 0)
        {
            var nullable = !aggregate.ValueType.IsValueType || Nullable.GetUnderlyingType(aggregate.ValueType) is not null;
            return nullable ? true : throw new InvalidOperationException("Sequence contains no elements");
        }

        return new Item(aggregate, null, translated.Projection!.Names[0]).TryResult(groups[0].Rows, groups[0].Values[0], out result);
    }

    private GroupedRows? Rows(IReadOnlyList<GroupTotals> groups, object?[] values)
    {
        var slots = new List<object?[]>(groups.Count);
        foreach (var group in groups)
        {
            if (!group.KeyOfType)
            {
                return null;
            }

            var slot = new object?[_items.Length + 1];
            slot[0] = BsonClrConverter.ToClr(group.Key, Query.KeyType, _keyName);
            for (var i = 0; i < _items.Length; i++)
            {
                if (!_items[i].TryResult(group.Rows, group.Values[i], out slot[i + 1]))
                {
                    return null;
                }
            }

            slots.Add(slot);
        }

        var rows = new List<object?>(slots.Count);
        foreach (var slot in slots)
        {
            rows.Add(ExpressionInterpreter.Invoke(_selector, slot, values));
        }

        return new GroupedRows(rows);
    }

    /// <summary>One aggregate of the selector, and how its totals become LINQ's value.</summary>
    private sealed record Item(GroupAggregate Aggregate, SourceAggregate? Totals, string Name)
    {
        public bool TryResult(long rows, GroupValueTotals totals, out object? result)
        {
            result = null;
            var aggregate = Aggregate;
            switch (aggregate.Kind)
            {
                case GroupAggregateKind.Count:
                    result = checked((int)rows);
                    return true;
                case GroupAggregateKind.LongCount:
                    result = rows;
                    return true;
                case GroupAggregateKind.Min or GroupAggregateKind.Max:
                    var nullable = !aggregate.ValueType.IsValueType || Nullable.GetUnderlyingType(aggregate.ValueType) is not null;
                    if (totals.Matching != totals.Present || (!nullable && totals.Present != rows))
                    {
                        return false;
                    }

                    result = totals.Extreme.IsNull ? null : BsonClrConverter.ToClr(totals.Extreme, aggregate.ValueType, Name);
                    return true;
            }

            if (totals.Sum is not { } sum || !PartialSumsFit(totals, sum))
            {
                return false;
            }

            return Totals!.Value.TryResult(new AggregateTotals(rows, totals.Present, totals.Matching, sum, totals.DoubleSum), out result);
        }

        /// <summary>
        /// LINQ adds in order and checks every step: when the positive and the negative values
        /// each total inside the accumulator's range, no running sum left it, so the exact total
        /// is LINQ's (or, when the total itself is outside, LINQ overflowed too).
        /// </summary>
        private bool PartialSumsFit(GroupValueTotals totals, decimal sum)
        {
            if (Aggregate.Numeric == NumericKind.Double)
            {
                return totals.DoublesAdded;
            }

            var (min, max) = (Aggregate.Numeric, Aggregate.Kind) switch
            {
                (NumericKind.Int32, GroupAggregateKind.Sum) => ((decimal)int.MinValue, (decimal)int.MaxValue),
                (NumericKind.Int32 or NumericKind.Int64, _) => (long.MinValue, long.MaxValue),
                _ => (decimal.MinValue, decimal.MaxValue),
            };
            var totalFits = sum >= min && sum <= max;
            return !totalFits || (totals.PositiveSum is { } positive && positive <= max && totals.NegativeSum is { } negative && negative >= min);
        }
    }

    /// <summary>Rewrites the Select after GroupBy to read the key and the aggregates from a row; fails on any other use of the group.</summary>
    private sealed class SelectorRewriter(ParameterExpression group, ParameterExpression row, Type keyType, ProjectionPlan projection) : ExpressionVisitor
    {
        private readonly Dictionary<(GroupAggregateKind, int, Type), int> _slots = [];

        public List<Item> Items { get; } = [];

        public bool Failed { get; private set; }

        protected override Expression VisitMember(MemberExpression node) =>
            node.Expression == group && node.Member.Name == nameof(IGrouping<object, object>.Key) && node.Type == keyType
                ? new ProjectedFieldExpression(row, 0, keyType)
                : base.VisitMember(node);

        protected override Expression VisitMethodCall(MethodCallExpression node)
        {
            if (node.Object is not null || node.Arguments.Count == 0 || node.Arguments[0] != group || node.Method.DeclaringType != typeof(Enumerable))
            {
                return base.VisitMethodCall(node);
            }

            var slot = Aggregate(node);
            if (slot < 0)
            {
                Failed = true;
                return node;
            }

            return new ProjectedFieldExpression(row, slot, node.Type);
        }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            Failed |= node == group;
            return node;
        }

        protected override Expression VisitExtension(Expression node) => node;

        /// <summary>The row slot of an aggregate call on the group, or -1 when the source cannot total it.</summary>
        private int Aggregate(MethodCallExpression call)
        {
            GroupAggregateKind? kind = (call.Method.Name, call.Arguments.Count) switch
            {
                (nameof(Enumerable.Count), 1) => GroupAggregateKind.Count,
                (nameof(Enumerable.LongCount), 1) => GroupAggregateKind.LongCount,
                (nameof(Enumerable.Sum), 2) => GroupAggregateKind.Sum,
                (nameof(Enumerable.Average), 2) => GroupAggregateKind.Average,
                (nameof(Enumerable.Min), 2) => GroupAggregateKind.Min,
                (nameof(Enumerable.Max), 2) => GroupAggregateKind.Max,
                _ => null,
            };
            if (kind is not { } aggregateKind)
            {
                return -1;
            }

            ValueExpression? value = null;
            var valueType = call.Type;
            var name = "";
            var valueSlot = -1;
            SourceAggregate? totals = null;
            if (call.Arguments.Count == 2)
            {
                if (call.Arguments[1] is not LambdaExpression { Parameters.Count: 1, Body: ProjectedFieldExpression field } selector
                    || field.Row != selector.Parameters[0] || selector.ReturnType != projection.Types[field.Slot])
                {
                    return -1;
                }

                valueSlot = field.Slot;
                value = projection.Values[field.Slot];
                valueType = selector.ReturnType;
                name = projection.Names[field.Slot];
                if (aggregateKind is GroupAggregateKind.Sum or GroupAggregateKind.Average)
                {
                    totals = SourceAggregate.Of(value, valueType, aggregateKind == GroupAggregateKind.Sum);
                    if (totals is null)
                    {
                        return -1;
                    }
                }
            }

            var key = (aggregateKind, valueSlot, valueType);
            if (!_slots.TryGetValue(key, out var slot))
            {
                slot = Items.Count + 1;
                _slots.Add(key, slot);
                Items.Add(new Item(new GroupAggregate(aggregateKind, value, valueType, totals?.Kind ?? default), totals, name));
            }

            return slot;
        }
    }
}

/// <summary>The rows of a query's Select after GroupBy, computed from the groups a source formed; the operations after that Select still run on them.</summary>
internal sealed class GroupedRows(List<object?> rows) : IEnumerable<object?>
{
    public IEnumerator<object?> GetEnumerator() => rows.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
