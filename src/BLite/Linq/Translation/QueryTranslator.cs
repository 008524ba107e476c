using System.Linq.Expressions;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

/// <summary>
/// Translates a parameterized LINQ expression (see <see cref="ExpressionParameterizer"/>) over a
/// BLite root into a <see cref="TranslatedQuery"/>: Where / OrderBy / Skip / Take go to the engine
/// as a <see cref="DocumentQuery"/>; Select, GroupBy and aggregates run in memory on what the
/// engine returns. Anything else throws <see cref="NotSupportedException"/> naming the
/// expression — nothing is silently filtered in memory.
/// </summary>
internal sealed partial class QueryTranslator
{
    private enum Stage
    {
        Source,
        Limited,
        Projected,
        Grouped,
    }

    private readonly IFieldPathResolver _resolver;
    private readonly ParameterUse[] _parameterUses;
    private readonly List<QueryFilter> _filters = [];
    private readonly List<SortKey> _sort = [];
    private readonly List<LimitStep> _limits = [];
    private readonly List<PostOperation> _post = [];
    private Stage _stage = Stage.Source;
    private Type _elementType = typeof(object);
    private Type _rootType = typeof(object);
    private bool _groupsProjected;
    private int _currentSortRun;
    private int _elementIndexSlot = -1;
    private QueryTranslator(IFieldPathResolver resolver, int parameterCount)
    {
        _resolver = resolver;
        _parameterUses = new ParameterUse[parameterCount];
    }

    public static TranslatedQuery Translate(Expression shape, int parameterCount, IFieldPathResolver resolver)
    {
        var translator = new QueryTranslator(resolver, parameterCount);
        return translator.TranslateRoot(shape);
    }

    private TranslatedQuery TranslateRoot(Expression expression)
    {
        var terminal = QueryTerminal.Sequence;
        LambdaExpression? selector = null;
        var sequence = expression;
        if (expression is MethodCallExpression call && call.Method.DeclaringType == typeof(Queryable) && IsTerminal(call.Method.Name))
        {
            sequence = call.Arguments[0];
            VisitSequence(sequence);
            (terminal, selector) = ApplyTerminal(call);
            OrderForExtreme(terminal, selector);
        }
        else
        {
            VisitSequence(sequence);
        }

        if (_stage == Stage.Grouped && !_groupsProjected && terminal is not (QueryTerminal.Count or QueryTerminal.LongCount or QueryTerminal.Any))
        {
            throw Unsupported(expression, "a GroupBy must be followed by a Select that projects the key and aggregates (g => new { g.Key, Count = g.Count() }); IGrouping results are not supported");
        }

        RequireNoSortWithVector(expression);
        var hasSkip = _limits.Exists(l => l.IsSkip);
        var hasTake = _limits.Exists(l => !l.IsSkip);
        var filter = _filters.Count switch
        {
            0 => null,
            1 => _filters[0],
            _ => QueryFilter.And(_filters),
        };
        var query = new DocumentQuery(
            filter,
            _sort,
            hasSkip ? FilterOperand.FromParameter(_parameterUses.Length) : null,
            hasTake ? FilterOperand.FromParameter(_parameterUses.Length + 1) : null);
        return new TranslatedQuery
        {
            Query = query,
            ParameterUses = _parameterUses,
            Limits = _limits,
            PostOperations = _post,
            Terminal = terminal,
            TerminalSelector = selector,
            AggregateValueType = selector?.ReturnType ?? _elementType,
            Projection = TryPushDownProjection(selector),
            ElementIndexSlot = _elementIndexSlot,
            Vector = _vector,
            WithDistance = _withDistance,
        };
    }

    private static bool IsTerminal(string name) => name is nameof(Queryable.First) or nameof(Queryable.FirstOrDefault)
        or nameof(Queryable.Single) or nameof(Queryable.SingleOrDefault) or nameof(Queryable.Any) or nameof(Queryable.All)
        or nameof(Queryable.Count) or nameof(Queryable.LongCount) or nameof(Queryable.Min) or nameof(Queryable.Max)
        or nameof(Queryable.Sum) or nameof(Queryable.Average) or nameof(Queryable.Last) or nameof(Queryable.LastOrDefault)
        or nameof(Queryable.ElementAt) or nameof(Queryable.ElementAtOrDefault);

    private void VisitSequence(Expression expression)
    {
        if (expression is ConstantExpression { Value: IQueryable root })
        {
            _elementType = _rootType = root.ElementType;
            return;
        }

        if (expression is MethodCallExpression { Method.DeclaringType: var declaring } include && declaring == typeof(QueryableIncludeExtensions))
        {
            VisitSequence(include.Arguments[0]);
            RequireStage(include, "Include", Stage.Source, Stage.Limited);
            _post.Add(new PostOperation(PostOperationKind.Include, Lambda(include, 1), null)
            {
                Missing = (MissingReference)((ConstantExpression)include.Arguments[2]).Value!,
            });
            return;
        }

        if (expression is not MethodCallExpression call
            || (call.Method.DeclaringType != typeof(Queryable) && call.Method.DeclaringType != typeof(VectorQueryableExtensions)))
        {
            throw Unsupported(expression, "only Queryable operators over a BLite collection can be translated");
        }

        VisitSequence(call.Arguments[0]);
        if (TryVisitVectorOperator(call))
        {
            return;
        }

        switch (call.Method.Name)
        {
            case nameof(Queryable.Where) when Lambda(call, 1).Parameters.Count == 1:
                RequireStage(call, "Where", Stage.Source);
                _filters.Add(TranslatePredicate(Lambda(call, 1)));
                break;
            case nameof(Queryable.OrderBy) or nameof(Queryable.OrderByDescending) when call.Arguments.Count == 2:
                RequireStage(call, "OrderBy", Stage.Source);
                _sort.Insert(0, new SortKey(TranslateSortPath(Lambda(call, 1)), call.Method.Name == nameof(Queryable.OrderByDescending)));
                _currentSortRun = 1;
                break;
            case nameof(Queryable.ThenBy) or nameof(Queryable.ThenByDescending) when call.Arguments.Count == 2:
                RequireStage(call, "ThenBy", Stage.Source);
                InsertThenBy(new SortKey(TranslateSortPath(Lambda(call, 1)), call.Method.Name == nameof(Queryable.ThenByDescending)));
                break;
            case nameof(Queryable.Skip) or nameof(Queryable.Take) when call.Arguments[1] is QueryParameterExpression count:
                AddLimit(call.Method.Name == nameof(Queryable.Skip), count.Index);
                break;
            case nameof(Queryable.Select) when Lambda(call, 1).Parameters.Count == 1:
                if (_stage == Stage.Source || _stage == Stage.Limited)
                {
                    _stage = Stage.Projected;
                }
                else if (_stage == Stage.Grouped)
                {
                    _groupsProjected = true;
                }

                _post.Add(new PostOperation(PostOperationKind.Select, Lambda(call, 1), null));
                _elementType = Lambda(call, 1).ReturnType;
                break;
            case nameof(Queryable.SelectMany) when Lambda(call, 1).Parameters.Count == 1
                && (call.Arguments.Count == 2 || Lambda(call, 2).Parameters.Count == 2):
                RequireStage(call, "SelectMany", Stage.Source, Stage.Limited, Stage.Projected);
                // Flattening changes what Count, Take and First see, so everything after it runs in memory.
                _groupsProjected = true;
                _stage = Stage.Grouped;
                _post.Add(new PostOperation(PostOperationKind.SelectMany, Lambda(call, 1), null)
                {
                    ResultSelector = call.Arguments.Count == 3 ? Lambda(call, 2) : null,
                });
                _elementType = call.Method.ReturnType.GetGenericArguments()[0];
                break;
            case nameof(Queryable.Distinct) when call.Arguments.Count == 1:
                if (_stage is Stage.Source or Stage.Limited)
                {
                    throw Unsupported(call, "Distinct needs a Select before it (stored documents are always distinct)");
                }

                // Runs in memory on the projected values, so every later step must too.
                _groupsProjected |= _stage == Stage.Projected;
                _stage = Stage.Grouped;
                _post.Add(new PostOperation(PostOperationKind.Distinct, null, null));
                break;
            case nameof(Queryable.GroupBy) when call.Arguments.Count == 2:
                RequireStage(call, "GroupBy", Stage.Source, Stage.Limited);
                _post.Add(new PostOperation(PostOperationKind.GroupBy, Lambda(call, 1), null));
                _stage = Stage.Grouped;
                _elementType = call.Method.ReturnType.GetGenericArguments()[0];
                break;
            default:
                throw Unsupported(call, $"the operator {call.Method.Name} (with these arguments) is not supported");
        }
    }

    /// <summary>
    /// LINQ sorts are stable, so a later OrderBy becomes the primary key and earlier keys break
    /// its ties; ThenBy extends the run of keys started by the most recent OrderBy.
    /// </summary>
    private void InsertThenBy(SortKey key)
    {
        _sort.Insert(_currentSortRun, key);
        _currentSortRun++;
    }

    private void AddLimit(bool isSkip, int parameterIndex)
    {
        if (_stage == Stage.Grouped)
        {
            _post.Add(new PostOperation(isSkip ? PostOperationKind.Skip : PostOperationKind.Take, null, new LimitStep(isSkip, parameterIndex, 0)));
            return;
        }

        _limits.Add(new LimitStep(isSkip, parameterIndex, 0));
        if (_stage == Stage.Source)
        {
            _stage = Stage.Limited;
        }
    }

    private void RequireStage(Expression call, string what, params Stage[] allowed)
    {
        if (Array.IndexOf(allowed, _stage) >= 0)
        {
            return;
        }

        var reason = _stage switch
        {
            Stage.Limited => $"{what} after Skip/Take cannot be run by the engine; apply {what} before Skip/Take",
            Stage.Projected => $"{what} after Select cannot be run by the engine; apply {what} before Select",
            _ => $"{what} after GroupBy, Distinct or SelectMany is not supported",
        };
        throw Unsupported(call, reason);
    }

    private static LambdaExpression Lambda(MethodCallExpression call, int index)
    {
        var argument = call.Arguments[index];
        while (argument is UnaryExpression { NodeType: ExpressionType.Quote } quote)
        {
            argument = quote.Operand;
        }

        return argument as LambdaExpression ?? throw Unsupported(call, "a lambda argument was expected");
    }

    internal static NotSupportedException Unsupported(Expression expression, string reason) =>
        new($"The LINQ expression '{expression}' cannot be translated by BLite: {reason}.");
}
