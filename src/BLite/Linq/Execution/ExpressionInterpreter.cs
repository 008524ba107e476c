using System.Collections;
using System.Linq.Expressions;
using System.Reflection;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>
/// Evaluates expression trees by walking them: captured values while parameterizing a query, and
/// Select / GroupBy projections on materialized documents. Nothing is compiled, because NativeAOT
/// has no JIT for <c>Expression.Compile</c>; members, constructors and methods are reached through
/// the <see cref="MemberInfo"/>s the C# compiler already put in the tree, which trimming keeps.
/// </summary>
internal static partial class ExpressionInterpreter
{
    /// <summary>Evaluates an expression that references no lambda parameter.</summary>
    public static object? Evaluate(Expression expression) =>
        // A captured local (a field of the compiler's closure object) is what a query's values
        // nearly always are: read it without walking the tree.
        expression is MemberExpression { Expression: ConstantExpression { Value: { } closure and not IGroupingKey }, Member: FieldInfo field }
            ? field.GetValue(closure)
            : Eval(expression, new Context(null, []));

    /// <summary>Invokes <paramref name="lambda"/> on one argument, with this execution's query parameter values.</summary>
    public static object? Invoke(LambdaExpression lambda, object? argument, object?[] queryValues) =>
        Eval(lambda.Body, new Context(new Scope(lambda.Parameters[0], argument, null), queryValues));

    /// <summary>Invokes a two-parameter <paramref name="lambda"/> (a SelectMany result selector), with this execution's query parameter values.</summary>
    public static object? Invoke(LambdaExpression lambda, object? first, object? second, object?[] queryValues) =>
        Eval(lambda.Body, new Context(new Scope(lambda.Parameters[1], second, new Scope(lambda.Parameters[0], first, null)), queryValues));

    /// <summary>Evaluates <paramref name="body"/> with each of <paramref name="parameters"/> bound to its argument (a compiled query's source, or a slot computed from its parameters).</summary>
    public static object? Evaluate(Expression body, IReadOnlyList<ParameterExpression> parameters, object?[] arguments)
    {
        Scope? scope = null;
        for (var i = 0; i < parameters.Count; i++)
        {
            scope = new Scope(parameters[i], arguments[i], scope);
        }

        return Eval(body, new Context(scope, []));
    }

    private sealed record Scope(ParameterExpression Parameter, object? Value, Scope? Outer);

    private readonly record struct Context(Scope? Scope, object?[] QueryValues)
    {
        public Context With(ParameterExpression parameter, object? value) => this with { Scope = new Scope(parameter, value, Scope) };
    }

    private static object? Eval(Expression node, Context context)
    {
        switch (node)
        {
            case ConstantExpression constant:
                return constant.Value;
            case QueryParameterExpression parameter:
                return context.QueryValues[parameter.Index];
            case ProjectedFieldExpression field:
                return ProjectedField(field, context);
            case ParameterExpression parameter:
                return Lookup(parameter, context.Scope);
            case MemberExpression member:
                return EvalMember(member, context);
            case UnaryExpression unary:
                return EvalUnary(unary, context);
            case BinaryExpression binary:
                return EvalBinary(binary, context);
            case ConditionalExpression conditional:
                return (bool)Eval(conditional.Test, context)! ? Eval(conditional.IfTrue, context) : Eval(conditional.IfFalse, context);
            case MethodCallExpression call:
                return EvalCall(call, context);
            case NewExpression newExpression:
                return EvalNew(newExpression, context);
            case MemberInitExpression init:
                return EvalMemberInit(init, context);
            case ListInitExpression listInit:
                return EvalListInit(listInit, context);
            case NewArrayExpression { NodeType: ExpressionType.NewArrayInit } newArray:
                return EvalNewArray(newArray, context);
            case TypeBinaryExpression typeBinary:
                var operand = Eval(typeBinary.Expression, context);
                return typeBinary.NodeType == ExpressionType.TypeEqual
                    ? operand?.GetType() == typeBinary.TypeOperand
                    : typeBinary.TypeOperand.IsInstanceOfType(operand);
            case InvocationExpression { Expression: LambdaExpression lambda } invocation:
                var scoped = context;
                for (var i = 0; i < lambda.Parameters.Count; i++)
                {
                    scoped = scoped.With(lambda.Parameters[i], Eval(invocation.Arguments[i], context));
                }

                return Eval(lambda.Body, scoped);
            case DefaultExpression when !node.Type.IsValueType || Nullable.GetUnderlyingType(node.Type) is not null:
                return null;
            case IndexExpression index when index.Indexer is not null:
                return index.Indexer.GetValue(Eval(index.Object!, context), EvalArguments(index.Arguments, context));
            default:
                throw Unsupported(node, "this kind of expression cannot be evaluated by the query interpreter");
        }
    }

    /// <summary>A slot of the row a pushed-down projection read; a null where C# has a non-nullable value throws as <c>.Value</c> would.</summary>
    private static object? ProjectedField(ProjectedFieldExpression field, Context context)
    {
        var value = ((object?[])Lookup(field.Row, context.Scope)!)[field.Slot];
        if (value is null && field.Type.IsValueType && Nullable.GetUnderlyingType(field.Type) is null)
        {
            throw new InvalidOperationException($"Nullable object must have a value (the stored field read as {field.Type.Name} is null).");
        }

        return value;
    }

    private static object? Lookup(ParameterExpression parameter, Scope? scope)
    {
        for (var current = scope; current is not null; current = current.Outer)
        {
            if (current.Parameter == parameter)
            {
                return current.Value;
            }
        }

        throw new InvalidOperationException($"The lambda parameter '{parameter.Name}' is not in scope.");
    }

    private static object? EvalMember(MemberExpression member, Context context)
    {
        var target = member.Expression is null ? null : Eval(member.Expression, context);
        if (target is IGroupingKey grouping && member.Member.Name == nameof(IGrouping<object, object>.Key))
        {
            return grouping.Key;
        }

        if (member.Expression is not null && Nullable.GetUnderlyingType(member.Expression.Type) is not null)
        {
            // A nullable's value is boxed as the value itself, or null.
            return member.Member.Name == nameof(Nullable<int>.HasValue)
                ? target is not null
                : target ?? throw new InvalidOperationException("Nullable object must have a value.");
        }

        if (member.Expression is not null && target is null)
        {
            throw new NullReferenceException($"'{member.Expression}' is null, so '{member}' cannot be read.");
        }

        return member.Member switch
        {
            FieldInfo field => field.GetValue(target),
            PropertyInfo property => property.GetValue(target),
            _ => throw Unsupported(member, "only fields and properties can be read"),
        };
    }

    private static object? EvalNew(NewExpression node, Context context)
    {
        if (node.Constructor is null)
        {
            throw Unsupported(node, "a value type built without a constructor cannot be created by the interpreter");
        }

        // A cached invoker skips ConstructorInfo.Invoke's per-call checks and, for up to four
        // arguments, its argument array; it throws the constructor's own exception, as C# would.
        var invoker = Constructors.GetValue(node.Constructor, static constructor => ConstructorInvoker.Create(constructor));
        var arguments = node.Arguments;
        return arguments.Count switch
        {
            0 => invoker.Invoke(),
            1 => invoker.Invoke(Eval(arguments[0], context)),
            2 => invoker.Invoke(Eval(arguments[0], context), Eval(arguments[1], context)),
            3 => invoker.Invoke(Eval(arguments[0], context), Eval(arguments[1], context), Eval(arguments[2], context)),
            4 => invoker.Invoke(Eval(arguments[0], context), Eval(arguments[1], context), Eval(arguments[2], context), Eval(arguments[3], context)),
            _ => invoker.Invoke(new Span<object?>(EvalArguments(arguments, context))),
        };
    }

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<ConstructorInfo, ConstructorInvoker> Constructors = new();

    private static object? EvalMemberInit(MemberInitExpression node, Context context)
    {
        var instance = EvalNew(node.NewExpression, context);
        foreach (var binding in node.Bindings)
        {
            if (binding is not MemberAssignment assignment)
            {
                throw Unsupported(node, "only member assignments are supported in object initializers");
            }

            var value = Eval(assignment.Expression, context);
            switch (assignment.Member)
            {
                case FieldInfo field:
                    field.SetValue(instance, value);
                    break;
                case PropertyInfo property:
                    property.SetValue(instance, value);
                    break;
            }
        }

        return instance;
    }

    private static object? EvalListInit(ListInitExpression node, Context context)
    {
        var instance = EvalNew(node.NewExpression, context);
        foreach (var initializer in node.Initializers)
        {
            initializer.AddMethod.Invoke(instance, EvalArguments(initializer.Arguments, context));
        }

        return instance;
    }

    private static object EvalNewArray(NewArrayExpression node, Context context)
    {
        var array = Array.CreateInstanceFromArrayType(node.Type, node.Expressions.Count);
        for (var i = 0; i < node.Expressions.Count; i++)
        {
            array.SetValue(Eval(node.Expressions[i], context), i);
        }

        return array;
    }

    private static object? EvalCall(MethodCallExpression call, Context context)
    {
        if (call.Method.DeclaringType == typeof(Enumerable) && call.Arguments.Count > 0 && HasLambdaArgument(call))
        {
            return EvalEnumerableWithLambda(call, context);
        }

        if (call.Method.DeclaringType == typeof(Enumerable) && call.Arguments.Count == 1
            && call.Method.Name is nameof(Enumerable.Count) or nameof(Enumerable.LongCount) or nameof(Enumerable.Any))
        {
            // Untyped, so a group of projected rows counts like a group of documents.
            var elements = Elements(Eval(call.Arguments[0], context));
            return call.Method.Name switch
            {
                nameof(Enumerable.Count) => elements.Count(),
                nameof(Enumerable.LongCount) => elements.LongCount(),
                _ => elements.Any(),
            };
        }

        var target = call.Object is null ? null : Eval(call.Object, context);
        if (call.Object is not null && target is null)
        {
            throw new NullReferenceException($"'{call.Object}' is null, so '{call}' cannot be called.");
        }

        try
        {
            return call.Method.Invoke(target, EvalArguments(call.Arguments, context));
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e.InnerException).Throw();
            throw;
        }
    }

    private static bool HasLambdaArgument(MethodCallExpression call)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument is LambdaExpression)
            {
                return true;
            }
        }

        return false;
    }

    private static object?[] EvalArguments(IReadOnlyList<Expression> arguments, Context context)
    {
        var values = new object?[arguments.Count];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = Eval(arguments[i], context);
        }

        return values;
    }

    private static IEnumerable<object?> Elements(object? source)
    {
        if (source is not IEnumerable enumerable)
        {
            throw new ArgumentNullException(nameof(source));
        }

        foreach (var item in enumerable)
        {
            yield return item;
        }
    }

    internal static NotSupportedException Unsupported(Expression node, string reason) =>
        new($"The expression '{node}' is not supported in a BLite query: {reason}.");
}
