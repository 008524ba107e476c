using System.Linq.Expressions;

namespace BLite.Linq.Execution;

internal static partial class ExpressionInterpreter
{
    /// <summary>
    /// Enumerable methods that take a lambda (<c>g.Sum(x => x.Total)</c>, <c>g.Count(x => x.Paid)</c>,
    /// <c>o.Lines.Any(l => l.Quantity > 2)</c>): the lambda is interpreted per element, because a
    /// typed delegate for it could only come from compiling the tree.
    /// </summary>
    private static object? EvalEnumerableWithLambda(MethodCallExpression call, Context context)
    {
        var source = Elements(Eval(call.Arguments[0], context));
        var lambda = call.Arguments.Count == 2 ? call.Arguments[1] as LambdaExpression : null;
        if (lambda is null || lambda.Parameters.Count != 1)
        {
            throw Unsupported(call, $"Enumerable.{call.Method.Name} with these arguments cannot be evaluated by the query interpreter");
        }

        var parameter = lambda.Parameters[0];
        object? Apply(object? element) => Eval(lambda.Body, context.With(parameter, element));
        bool Test(object? element) => (bool)Apply(element)!;

        switch (call.Method.Name)
        {
            case nameof(Enumerable.Count):
                return source.Count(Test);
            case nameof(Enumerable.LongCount):
                return source.LongCount(Test);
            case nameof(Enumerable.Any):
                return source.Any(Test);
            case nameof(Enumerable.All):
                return source.All(Test);
            case nameof(Enumerable.First):
                return source.First(Test);
            case nameof(Enumerable.FirstOrDefault):
                return source.FirstOrDefault(Test);
            case nameof(Enumerable.Single):
                return source.Single(Test);
            case nameof(Enumerable.SingleOrDefault):
                return source.SingleOrDefault(Test);
            case nameof(Enumerable.Last):
                return source.Last(Test);
            case nameof(Enumerable.LastOrDefault):
                return source.LastOrDefault(Test);
            case nameof(Enumerable.Sum):
                return AggregateEvaluator.Aggregate(AggregateKind.Sum, source.Select(Apply), lambda.ReturnType);
            case nameof(Enumerable.Average):
                return AggregateEvaluator.Aggregate(AggregateKind.Average, source.Select(Apply), lambda.ReturnType);
            case nameof(Enumerable.Min):
                return AggregateEvaluator.Aggregate(AggregateKind.Min, source.Select(Apply), lambda.ReturnType);
            case nameof(Enumerable.Max):
                return AggregateEvaluator.Aggregate(AggregateKind.Max, source.Select(Apply), lambda.ReturnType);
            default:
                throw Unsupported(call, $"Enumerable.{call.Method.Name} with a lambda cannot be evaluated by the query interpreter (its result would need a typed delegate)");
        }
    }
}
