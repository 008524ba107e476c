using System.Linq.Expressions;
using BLite.Core.Query;

namespace BLite.Linq.Translation;

internal sealed partial class QueryTranslator
{
    private (QueryTerminal Terminal, LambdaExpression? Selector) ApplyTerminal(MethodCallExpression call)
    {
        var lambda = call.Arguments.Count == 2 ? Lambda(call, 1) : null;
        var terminal = call.Method.Name switch
        {
            nameof(Queryable.First) => QueryTerminal.First,
            nameof(Queryable.FirstOrDefault) => QueryTerminal.FirstOrDefault,
            nameof(Queryable.Single) => QueryTerminal.Single,
            nameof(Queryable.SingleOrDefault) => QueryTerminal.SingleOrDefault,
            nameof(Queryable.Any) => QueryTerminal.Any,
            nameof(Queryable.All) => QueryTerminal.All,
            nameof(Queryable.Count) => QueryTerminal.Count,
            nameof(Queryable.LongCount) => QueryTerminal.LongCount,
            nameof(Queryable.Min) => QueryTerminal.Min,
            nameof(Queryable.Max) => QueryTerminal.Max,
            nameof(Queryable.Sum) => QueryTerminal.Sum,
            _ => QueryTerminal.Average,
        };

        if (call.Arguments.Count > 2)
        {
            throw Unsupported(call, $"the {call.Method.Name} overload with {call.Arguments.Count - 1} arguments is not supported");
        }

        switch (terminal)
        {
            case QueryTerminal.Min or QueryTerminal.Max or QueryTerminal.Sum or QueryTerminal.Average:
                RequireStage(call, call.Method.Name, Stage.Source, Stage.Limited, Stage.Projected);
                return (terminal, lambda);
            case QueryTerminal.All:
                RequireStage(call, "All", Stage.Source);
                _filters.Add(QueryFilter.Not(TranslatePredicate(lambda!)));
                AddConstantTake(1);
                return (terminal, null);
        }

        if (lambda is not null)
        {
            RequireStage(call, call.Method.Name + " with a predicate", Stage.Source);
            _filters.Add(TranslatePredicate(lambda));
        }

        if (_stage != Stage.Grouped)
        {
            switch (terminal)
            {
                case QueryTerminal.First or QueryTerminal.FirstOrDefault or QueryTerminal.Any:
                    AddConstantTake(1);
                    break;
                case QueryTerminal.Single or QueryTerminal.SingleOrDefault:
                    // Two are enough to tell "exactly one" from "more than one".
                    AddConstantTake(2);
                    break;
            }
        }

        return (terminal, null);
    }

    private void AddConstantTake(long count) => _limits.Add(new LimitStep(false, -1, count));
}
