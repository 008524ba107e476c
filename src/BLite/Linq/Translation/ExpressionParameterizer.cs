using System.Linq.Expressions;
using BLite.Linq.Execution;

namespace BLite.Linq.Translation;

/// <summary>
/// Lifts every sub-expression that does not depend on a lambda parameter (literals, captured
/// variables, calls on them) out of a query expression, evaluates it once, and puts a
/// <see cref="QueryParameterExpression"/> in its place. The resulting shape is the plan-cache key;
/// the values are this execution's parameters. Values the translator must see to decide the
/// shape (a <see cref="StringComparison"/>, the query root) stay in the tree as constants.
/// </summary>
internal sealed class ExpressionParameterizer : ExpressionVisitor
{
    private readonly HashSet<Expression> _evaluatable;
    private readonly List<object?> _values = [];
    private readonly HashSet<ParameterExpression>? _outer;
    private readonly List<Expression> _lifted = [];

    private ExpressionParameterizer(HashSet<Expression> evaluatable, HashSet<ParameterExpression>? outer = null)
    {
        _evaluatable = evaluatable;
        _outer = outer;
    }

    public static (Expression Shape, object?[] Values) Parameterize(Expression expression)
    {
        var evaluatable = EvaluatableFinder.Find(expression);
        var parameterizer = new ExpressionParameterizer(evaluatable);
        var shape = parameterizer.Visit(expression);
        return (shape!, parameterizer._values.ToArray());
    }

    /// <summary>
    /// The shape of a compiled query's body (<see cref="CompiledQuery"/>): sub-trees free of the
    /// query's own lambda parameters become slots as in <see cref="Parameterize"/>, and may read
    /// the compiled query's <paramref name="outer"/> parameters. Each slot's sub-tree is returned
    /// instead of its value, to be evaluated per call; a bool one that reads an outer parameter is
    /// refused, because a bool decides the shape (see <see cref="Visit"/>).
    /// </summary>
    public static (Expression Shape, Expression[] Slots) ParameterizeCompiled(Expression body, IReadOnlyCollection<ParameterExpression> outer)
    {
        var outerSet = new HashSet<ParameterExpression>(outer);
        var evaluatable = EvaluatableFinder.Find(body, outerSet);
        var parameterizer = new ExpressionParameterizer(evaluatable, outerSet);
        var shape = parameterizer.Visit(body);
        return (shape!, parameterizer._lifted.ToArray());
    }

    /// <summary>True when <paramref name="node"/> is a sub-tree <see cref="Parameterize"/> lifts whole: every node in it can be lifted.</summary>
    internal static bool IsLiftable(Expression node)
    {
        // A captured variable (a closure field, possibly through a few members) or a literal, the
        // usual slot contents, is checked without a visitor.
        var current = node;
        while (current is MemberExpression member && EvaluatableFinder.CanLift(current))
        {
            if (member.Expression is null)
            {
                return true;
            }

            current = member.Expression;
        }

        if (current is ConstantExpression)
        {
            return EvaluatableFinder.CanLift(current);
        }

        var check = new LiftableCheck();
        check.Visit(node);
        return check.Liftable;
    }

    public override Expression? Visit(Expression? node)
    {
        if (node is null || !_evaluatable.Contains(node))
        {
            return base.Visit(node);
        }

        if (_outer is not null)
        {
            return Lift(node);
        }

        var value = ExpressionInterpreter.Evaluate(node);
        if (node.Type == typeof(bool))
        {
            // A condition that does not depend on the document (`flag && o.Total > 5`) decides
            // the filter's shape, so it stays a constant; at most two shapes per flag are cached.
            return Expression.Constant(value, typeof(bool));
        }

        _values.Add(value);
        return new QueryParameterExpression(_values.Count - 1, node.Type);
    }

    private Expression Lift(Expression node)
    {
        if (node.Type == typeof(bool))
        {
            if (References(node, _outer!))
            {
                throw new NotSupportedException(
                    $"The compiled query's condition '{node}' does not depend on the document but on a parameter: a bool decides the query's shape, so it cannot be a compiled query's parameter. Compile one query per case, or test a document field against the parameter.");
            }

            return Expression.Constant(ExpressionInterpreter.Evaluate(node), typeof(bool));
        }

        _lifted.Add(node);
        return new QueryParameterExpression(_lifted.Count - 1, node.Type);
    }

    /// <summary>Whether <paramref name="node"/> reads one of <paramref name="parameters"/>.</summary>
    internal static bool References(Expression node, IReadOnlySet<ParameterExpression> parameters)
    {
        var finder = new ParameterFinder(parameters);
        finder.Visit(node);
        return finder.Found;
    }

    /// <summary>
    /// Keeps the integer of <c>string.Compare(a, b) &gt; 0</c> (or <c>a.CompareTo(b)</c>) in the
    /// shape: the translator must see that it is 0 to turn the test into an ordinal comparison.
    /// </summary>
    protected override Expression VisitBinary(BinaryExpression node)
    {
        if (IsCompareResultTest(node, out var callIsLeft))
        {
            return callIsLeft ? node.Update(Visit(node.Left)!, node.Conversion, node.Right) : node.Update(node.Left, node.Conversion, Visit(node.Right)!);
        }

        return base.VisitBinary(node);
    }

    internal static bool IsCompareResultTest(BinaryExpression node, out bool callIsLeft)
    {
        callIsLeft = IsStringCompare(node.Left);
        return node.NodeType is ExpressionType.Equal or ExpressionType.NotEqual or ExpressionType.LessThan or ExpressionType.LessThanOrEqual
                or ExpressionType.GreaterThan or ExpressionType.GreaterThanOrEqual
            && (callIsLeft ? node.Right : node.Left) is ConstantExpression { Value: int }
            && (callIsLeft || IsStringCompare(node.Right));
    }

    internal static bool IsStringCompare(Expression node) => node is MethodCallExpression call && call.Method.DeclaringType == typeof(string)
        && call.Method.Name is nameof(string.Compare) or nameof(string.CompareOrdinal) or nameof(string.CompareTo);

    /// <summary>
    /// The array a span conversion reads (C# 14 binds <c>new[] { a, b }.Contains(x)</c> to
    /// <c>MemoryExtensions.Contains</c> through one). The span is only read, so an inline array
    /// under it may be lifted like a captured one: its length then no longer splits the plan cache.
    /// </summary>
    internal static Expression? SpanConversionOperand(Expression node) => node switch
    {
        MethodCallExpression { Method.Name: "op_Implicit", Arguments: [var operand] } when node.Type.IsByRefLike => operand,
        UnaryExpression { NodeType: ExpressionType.Convert, Operand: var operand } when node.Type.IsByRefLike => operand,
        _ => null,
    };

    /// <summary>
    /// Marks the maximal sub-trees free of lambda parameters. A node is evaluatable when all its
    /// children are and it is not one of the shape-deciding constants; a parent that is evaluatable
    /// replaces the marks of its children, so only the outermost node of a run is lifted.
    /// </summary>
    private sealed class EvaluatableFinder : ExpressionVisitor
    {
        private readonly HashSet<Expression> _candidates = new(ReferenceEqualityComparer.Instance);
        private readonly HashSet<Expression> _spanSources = new(ReferenceEqualityComparer.Instance);
        private readonly HashSet<ParameterExpression>? _outer;
        private bool _blocked;

        private EvaluatableFinder(HashSet<ParameterExpression>? outer) => _outer = outer;

        /// <param name="outer">Parameters that stand for values known at execution (a compiled query's), liftable like captured variables.</param>
        public static HashSet<Expression> Find(Expression expression, HashSet<ParameterExpression>? outer = null)
        {
            var finder = new EvaluatableFinder(outer);
            finder.Visit(expression);
            return finder._candidates;
        }

        public override Expression? Visit(Expression? node)
        {
            if (node is null)
            {
                return null;
            }

            if (SpanConversionOperand(node) is { } source)
            {
                _spanSources.Add(source);
            }

            var outerBlocked = _blocked;
            _blocked = false;
            base.Visit(node);
            if (!_blocked)
            {
                if (CanLift(node) || (node.NodeType == ExpressionType.NewArrayInit && _spanSources.Contains(node))
                    || (node is ParameterExpression parameter && _outer?.Contains(parameter) == true))
                {
                    RemoveChildren(node);
                    _candidates.Add(node);
                }
                else
                {
                    _blocked = true;
                }
            }

            _blocked |= outerBlocked;
            return node;
        }

        private void RemoveChildren(Expression node) => new ChildRemover(_candidates).Visit(node);

        internal static bool CanLift(Expression node) => node.NodeType switch
        {
            ExpressionType.Parameter or ExpressionType.Lambda or ExpressionType.Quote => false,
            ExpressionType.Extension => false,
            ExpressionType.Constant => !IsShapeConstant(((ConstantExpression)node).Value) && !IsComparer(node.Type),

            // A reference-type object built in the query would be shared by every row if lifted.
            ExpressionType.New or ExpressionType.MemberInit or ExpressionType.ListInit
                or ExpressionType.NewArrayInit or ExpressionType.NewArrayBounds => node.Type.IsValueType,
            _ => !node.Type.IsByRefLike && node.Type != typeof(void),
        };

        /// <summary>Constants that decide the translation itself and therefore belong to the shape.</summary>
        internal static bool IsShapeConstant(object? value) => value is IQueryable or StringComparison or MissingReference;

        /// <summary>
        /// Comparer arguments (C# 14 binds <c>array.Contains(x)</c> to a MemoryExtensions overload
        /// with a null comparer) decide whether the call is translatable, so they stay in the shape.
        /// </summary>
        private static bool IsComparer(Type type) => type.IsGenericType
            && type.GetGenericTypeDefinition() is var definition
            && (definition == typeof(IEqualityComparer<>) || definition == typeof(IComparer<>));

        protected override Expression VisitConstant(ConstantExpression node)
        {
            if (IsShapeConstant(node.Value) || IsComparer(node.Type))
            {
                _blocked = true;
            }

            return node;
        }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            _blocked |= _outer?.Contains(node) != true;
            return node;
        }

        protected override Expression VisitLambda<T>(Expression<T> node)
        {
            base.VisitLambda(node);
            _blocked = true;
            return node;
        }

        protected override Expression VisitExtension(Expression node)
        {
            _blocked = true;
            return node;
        }
    }

    private sealed class LiftableCheck : ExpressionVisitor
    {
        public bool Liftable { get; private set; } = true;

        public override Expression? Visit(Expression? node)
        {
            if (node is null || !Liftable)
            {
                return node;
            }

            if (!EvaluatableFinder.CanLift(node))
            {
                Liftable = false;
                return node;
            }

            return base.Visit(node);
        }
    }

    private sealed class ParameterFinder(IReadOnlySet<ParameterExpression> parameters) : ExpressionVisitor
    {
        public bool Found { get; private set; }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            Found |= parameters.Contains(node);
            return node;
        }
    }

    private sealed class ChildRemover(HashSet<Expression> candidates) : ExpressionVisitor
    {
        public override Expression? Visit(Expression? node)
        {
            if (node is not null)
            {
                candidates.Remove(node);
            }

            return base.Visit(node);
        }
    }
}
