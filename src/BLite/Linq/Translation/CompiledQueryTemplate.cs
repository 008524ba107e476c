using System.Linq.Expressions;
using System.Runtime.CompilerServices;
using BLite.Linq.Execution;

namespace BLite.Linq.Translation;

/// <summary>
/// What <see cref="CompiledQuery"/> keeps of a query lambda: the source it starts from (resolved
/// once per context), the shape of the rest with a slot for every value it reads (translated once
/// per source) and how each slot gets its value from a call's arguments. A call then costs a
/// table lookup and the slot values: no expression tree is built, matched or translated.
/// </summary>
internal sealed class CompiledQueryTemplate<TContext>
    where TContext : class
{
    private readonly Expression _root;
    private readonly ParameterExpression[] _context;
    private readonly Expression _shape;
    private readonly RootPlaceholder _placeholder;
    private readonly SlotSource[] _slots;
    private readonly ConditionalWeakTable<TContext, Prepared> _prepared = new();
    private readonly ConditionalWeakTable<TContext, Prepared>.CreateValueCallback _prepare;

    public CompiledQueryTemplate(LambdaExpression query)
    {
        ArgumentNullException.ThrowIfNull(query);
        var context = query.Parameters[0];
        var arguments = query.Parameters.Skip(1).ToArray();
        var root = FindRoot(query.Body);
        var outer = new HashSet<ParameterExpression>(arguments);
        if (ExpressionParameterizer.References(root, outer))
        {
            throw new NotSupportedException(
                $"The compiled query's source '{root}' reads a parameter; it must depend on the context alone (for example db.Orders.Query()).");
        }

        _root = root;
        _context = [context];
        _placeholder = new RootPlaceholder(root.Type);
        var body = new NodeReplacer(root, _placeholder).Visit(query.Body)!;
        var (shape, lifted) = ExpressionParameterizer.ParameterizeCompiled(body, arguments);
        _shape = shape;
        _slots = lifted.Select(node => SlotSource.For(node, arguments, outer)).ToArray();
        _prepare = Prepare;
    }

    /// <summary>The provider to run on and its translation, for the source <paramref name="context"/> gives.</summary>
    public (IBLiteQueryProvider Provider, TranslatedQuery Translated) For(TContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var prepared = _prepared.GetValue(context, _prepare);
        return (prepared.Provider, prepared.Translated);
    }

    /// <summary>This call's slot values, read from its arguments (the context excluded).</summary>
    public object?[] Values(object?[] arguments)
    {
        if (_slots.Length == 0)
        {
            return [];
        }

        var values = new object?[_slots.Length];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = _slots[i].Read(arguments);
        }

        return values;
    }

    private Prepared Prepare(TContext context)
    {
        if (ExpressionInterpreter.Evaluate(_root, _context, [context]) is not IQueryable { Provider: IBLiteQueryProvider provider } source)
        {
            throw new NotSupportedException($"The compiled query's source '{_root}' is not a BLite query (a collection's Query()).");
        }

        var shape = new NodeReplacer(_placeholder, Expression.Constant(source, _root.Type)).Visit(_shape)!;
        return new Prepared(provider, provider.Translate(shape, _slots.Length));
    }

    /// <summary>
    /// The query's source: below the LINQ operators (every method whose first argument is the
    /// queryable they extend, Queryable's and BLite's alike), the expression they start from.
    /// </summary>
    private static Expression FindRoot(Expression body)
    {
        var node = body;
        while (node is MethodCallExpression { Method.IsStatic: true, Arguments: [var source, ..] } call
               && typeof(IQueryable).IsAssignableFrom(source.Type) && IsOperator(call))
        {
            node = source;
        }

        if (ReferenceEquals(node, body) || !typeof(IQueryable).IsAssignableFrom(node.Type))
        {
            throw new NotSupportedException(
                $"A compiled query must be LINQ operators over a BLite query, for example (db, city) => db.Accounts.Query().Where(a => a.City == city); '{body}' is not.");
        }

        return node;
    }

    private static bool IsOperator(MethodCallExpression call) =>
        call.Method.DeclaringType == typeof(Queryable) || call.Method.DeclaringType?.Namespace == typeof(CompiledQuery).Namespace;

    private sealed record Prepared(IBLiteQueryProvider Provider, TranslatedQuery Translated);

    /// <summary>Where one slot's value comes from: an argument as it is, or a computation over the arguments.</summary>
    private readonly struct SlotSource
    {
        private readonly int _argument;
        private readonly Expression? _computed;
        private readonly ParameterExpression[] _parameters;
        private readonly object? _constant;

        private SlotSource(int argument, Expression? computed, ParameterExpression[] parameters, object? constant)
        {
            _argument = argument;
            _computed = computed;
            _parameters = parameters;
            _constant = constant;
        }

        public static SlotSource For(Expression node, ParameterExpression[] arguments, IReadOnlySet<ParameterExpression> outer)
        {
            if (node is ParameterExpression parameter)
            {
                return new SlotSource(Array.IndexOf(arguments, parameter), null, arguments, null);
            }

            // A value that reads no parameter (a literal, a captured variable) is read once, here.
            return ExpressionParameterizer.References(node, outer)
                ? new SlotSource(-1, node, arguments, null)
                : new SlotSource(-1, null, arguments, ExpressionInterpreter.Evaluate(node));
        }

        public object? Read(object?[] arguments) =>
            _argument >= 0 ? arguments[_argument] : _computed is not null ? ExpressionInterpreter.Evaluate(_computed, _parameters, arguments) : _constant;
    }

    /// <summary>Stands for the query's source in the shape until a context gives it.</summary>
    private sealed class RootPlaceholder(Type type) : Expression
    {
        public override ExpressionType NodeType => ExpressionType.Extension;

        public override Type Type => type;

        public override bool CanReduce => false;

        protected override Expression VisitChildren(ExpressionVisitor visitor) => this;
    }

    private sealed class NodeReplacer(Expression from, Expression to) : ExpressionVisitor
    {
        public override Expression? Visit(Expression? node) => ReferenceEquals(node, from) ? to : base.Visit(node);
    }
}
