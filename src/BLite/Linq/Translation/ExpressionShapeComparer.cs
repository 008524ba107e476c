using System.Linq.Expressions;

namespace BLite.Linq.Translation;

/// <summary>
/// Structural equality of parameterized query expressions, the key of the translation cache.
/// Two shapes are equal when they have the same node types, types, members and methods, the
/// same parameter slots, and the same shape constants; lambda parameters are compared by
/// position (which lambda, which parameter), not by name. Shapes containing a node kind this
/// comparer does not know are reported as not cacheable.
/// </summary>
internal sealed class ExpressionShapeComparer : IEqualityComparer<Expression>
{
    public static readonly ExpressionShapeComparer Instance = new();

    [ThreadStatic]
    private static Matcher? t_matcher;

    public static bool IsCacheable(Expression expression) => new CacheabilityCheck().Check(expression);

    public bool Equals(Expression? x, Expression? y) => new Matcher().Match(x, y);

    /// <summary>
    /// Matches a query expression as the caller built it against a cached <paramref name="shape"/>
    /// without parameterizing it: where the shape holds a parameter slot, the expression must hold
    /// a sub-tree free of lambda parameters (its value is evaluated into <paramref name="values"/>,
    /// in slot order, once the whole tree matched); where the shape holds a lifted condition, the
    /// sub-tree must evaluate to the same flag. Saves rebuilding the tree on every execution.
    /// </summary>
    public static bool TryMatchUnparameterized(Expression shape, Expression expression, int parameterCount, out object?[] values)
    {
        values = [];
        var lifted = parameterCount == 0 ? [] : new Expression?[parameterCount];

        // One matcher per thread, taken out of its slot while in use: evaluating the values below
        // runs the caller's code, which may run another query on this thread.
        var matcher = t_matcher ?? new Matcher();
        t_matcher = null;
        try
        {
            matcher.Reset(lifted);
            return matcher.Match(shape, expression) && Complete(matcher, lifted, out values);
        }
        finally
        {
            matcher.Reset(null);
            t_matcher = matcher;
        }
    }

    private static bool Complete(Matcher matcher, Expression?[] lifted, out object?[] values)
    {
        values = [];
        for (var i = 0; i < lifted.Length; i++)
        {
            if (lifted[i] is null)
            {
                return false;
            }
        }

        // Evaluated only once the whole tree matched, so a miss never runs the caller's code twice.
        if (matcher.Conditions is { } conditions)
        {
            foreach (var (condition, flag) in conditions)
            {
                if (Execution.ExpressionInterpreter.Evaluate(condition) is not bool value || value != flag)
                {
                    return false;
                }
            }
        }

        values = lifted.Length == 0 ? [] : new object?[lifted.Length];
        for (var i = 0; i < lifted.Length; i++)
        {
            values[i] = Execution.ExpressionInterpreter.Evaluate(lifted[i]!);
        }

        return true;
    }

    public int GetHashCode(Expression obj)
    {
        var hash = new HashCode();
        Hash(obj, ref hash, depth: 0);
        return hash.ToHashCode();
    }

    private static void Hash(Expression? node, ref HashCode hash, int depth)
    {
        if (node is null || depth > 12)
        {
            return;
        }

        hash.Add(node.NodeType);
        hash.Add(node.Type);
        switch (node)
        {
            case BinaryExpression binary:
                Hash(binary.Left, ref hash, depth + 1);
                Hash(binary.Right, ref hash, depth + 1);
                break;
            case UnaryExpression unary:
                Hash(unary.Operand, ref hash, depth + 1);
                break;
            case MemberExpression member:
                hash.Add(member.Member);
                Hash(member.Expression, ref hash, depth + 1);
                break;
            case MethodCallExpression call:
                hash.Add(call.Method);
                Hash(call.Object, ref hash, depth + 1);
                foreach (var argument in call.Arguments)
                {
                    Hash(argument, ref hash, depth + 1);
                }

                break;
            case LambdaExpression lambda:
                Hash(lambda.Body, ref hash, depth + 1);
                break;
            case QueryParameterExpression parameter:
                hash.Add(parameter.Index);
                break;
            case ConstantExpression constant when constant.Value is StringComparison comparison:
                hash.Add(comparison);
                break;
        }
    }

    /// <summary>Compares two shapes, or (with lifted slots) a shape on the left with an unparameterized expression on the right.</summary>
    private sealed class Matcher
    {
        /// <summary>The lambdas entered on each side, innermost last (a query nests a few at most).</summary>
        private readonly List<(LambdaExpression Left, LambdaExpression Right)> _scopes = new(4);

        /// <summary>Where the sub-trees matched against the shape's parameter slots go; null when comparing two shapes.</summary>
        private Expression?[]? _lifted;

        /// <summary>Sub-trees matched against a condition the shape holds as a constant, with that constant; null until there is one.</summary>
        public List<(Expression Condition, bool Flag)>? Conditions { get; private set; }

        public void Reset(Expression?[]? liftedSlots)
        {
            _lifted = liftedSlots;
            _scopes.Clear();
            Conditions?.Clear();
        }

        public bool Match(Expression? x, Expression? y)
        {
            if (ReferenceEquals(x, y))
            {
                return true;
            }

            if (_lifted is not null && x is not null && y is not null && y is not QueryParameterExpression)
            {
                switch (x)
                {
                    case QueryParameterExpression slot:
                        if (slot.Type != y.Type || slot.Index >= _lifted.Length || _lifted[slot.Index] is not null || !ExpressionParameterizer.IsLiftable(y))
                        {
                            return false;
                        }

                        _lifted[slot.Index] = y;
                        return true;
                    case ConstantExpression { Value: bool flag } when y is not ConstantExpression:
                        // A condition lifted out of the shape as a constant (`flag && o.Paid`) must have the same value.
                        if (y.Type != typeof(bool) || !ExpressionParameterizer.IsLiftable(y))
                        {
                            return false;
                        }

                        (Conditions ??= []).Add((y, flag));
                        return true;
                }
            }

            if (x is null || y is null || x.NodeType != y.NodeType || x.Type != y.Type)
            {
                return false;
            }

            // One type test on each side, the common node kinds first: this runs on every
            // execution of a cached query, over a tree the caller has just built.
            return x switch
            {
                MemberExpression a => y is MemberExpression b && a.Member == b.Member && Match(a.Expression, b.Expression),
                MethodCallExpression a => y is MethodCallExpression b && a.Method == b.Method && Match(a.Object, b.Object) && MatchArguments(a, b),
                ParameterExpression a => y is ParameterExpression b && ParameterPosition(a, left: true) == ParameterPosition(b, left: false),
                UnaryExpression a => y is UnaryExpression b && a.Method == b.Method && Match(a.Operand, b.Operand),
                LambdaExpression a => y is LambdaExpression b && MatchLambda(a, b),
                BinaryExpression a => y is BinaryExpression b && a.Method == b.Method && a.IsLiftedToNull == b.IsLiftedToNull
                    && Match(a.Left, b.Left) && Match(a.Right, b.Right) && Match(a.Conversion, b.Conversion),
                ConstantExpression a => y is ConstantExpression b && MatchConstant(a.Value, b.Value),
                QueryParameterExpression a => y is QueryParameterExpression b && a.Index == b.Index,
                NewExpression a => y is NewExpression b && a.Constructor == b.Constructor && MatchArguments(a, b) && MatchMembers(a.Members, b.Members),
                MemberInitExpression a => y is MemberInitExpression b && Match(a.NewExpression, b.NewExpression) && MatchBindings(a.Bindings, b.Bindings),
                ListInitExpression a => y is ListInitExpression b && Match(a.NewExpression, b.NewExpression) && MatchInitializers(a.Initializers, b.Initializers),
                NewArrayExpression a => y is NewArrayExpression b && MatchAll(a.Expressions, b.Expressions),
                ConditionalExpression a => y is ConditionalExpression b && Match(a.Test, b.Test) && Match(a.IfTrue, b.IfTrue) && Match(a.IfFalse, b.IfFalse),
                TypeBinaryExpression a => y is TypeBinaryExpression b && a.TypeOperand == b.TypeOperand && Match(a.Expression, b.Expression),
                InvocationExpression a => y is InvocationExpression b && Match(a.Expression, b.Expression) && MatchArguments(a, b),
                DefaultExpression => y is DefaultExpression,
                IndexExpression a => y is IndexExpression b && a.Indexer == b.Indexer && Match(a.Object, b.Object) && MatchArguments(a, b),
                _ => false,
            };
        }

        /// <summary>Compares the arguments without reading <c>Arguments</c>, which allocates a collection on a fresh node.</summary>
        private bool MatchArguments(IArgumentProvider a, IArgumentProvider b)
        {
            var count = a.ArgumentCount;
            if (count != b.ArgumentCount)
            {
                return false;
            }

            for (var i = 0; i < count; i++)
            {
                if (!Match(a.GetArgument(i), b.GetArgument(i)))
                {
                    return false;
                }
            }

            return true;
        }

        private bool MatchLambda(LambdaExpression a, LambdaExpression b)
        {
            if (a.Parameters.Count != b.Parameters.Count)
            {
                return false;
            }

            for (var i = 0; i < a.Parameters.Count; i++)
            {
                if (a.Parameters[i].Type != b.Parameters[i].Type)
                {
                    return false;
                }
            }

            _scopes.Add((a, b));
            var equal = Match(a.Body, b.Body);
            _scopes.RemoveAt(_scopes.Count - 1);
            return equal;
        }

        private (int Scope, int Index) ParameterPosition(ParameterExpression parameter, bool left)
        {
            for (var scope = _scopes.Count - 1; scope >= 0; scope--)
            {
                var parameters = (left ? _scopes[scope].Left : _scopes[scope].Right).Parameters;
                for (var index = 0; index < parameters.Count; index++)
                {
                    if (ReferenceEquals(parameters[index], parameter))
                    {
                        return (scope, index);
                    }
                }
            }

            return (-1, -1);
        }

        /// <summary>Only shape constants survive parameterization; the query root matches any root of the same type.</summary>
        private static bool MatchConstant(object? a, object? b) => a is IQueryable || Equals(a, b);

        private bool MatchAll(IReadOnlyList<Expression> a, IReadOnlyList<Expression> b)
        {
            if (a.Count != b.Count)
            {
                return false;
            }

            for (var i = 0; i < a.Count; i++)
            {
                if (!Match(a[i], b[i]))
                {
                    return false;
                }
            }

            return true;
        }

        private static bool MatchMembers(IReadOnlyList<System.Reflection.MemberInfo>? a, IReadOnlyList<System.Reflection.MemberInfo>? b) =>
            a is null ? b is null : b is not null && a.SequenceEqual(b);

        private bool MatchBindings(IReadOnlyList<MemberBinding> a, IReadOnlyList<MemberBinding> b)
        {
            if (a.Count != b.Count)
            {
                return false;
            }

            for (var i = 0; i < a.Count; i++)
            {
                if (a[i] is not MemberAssignment left || b[i] is not MemberAssignment right
                    || left.Member != right.Member || !Match(left.Expression, right.Expression))
                {
                    return false;
                }
            }

            return true;
        }

        private bool MatchInitializers(IReadOnlyList<ElementInit> a, IReadOnlyList<ElementInit> b)
        {
            if (a.Count != b.Count)
            {
                return false;
            }

            for (var i = 0; i < a.Count; i++)
            {
                if (a[i].AddMethod != b[i].AddMethod || !MatchAll(a[i].Arguments, b[i].Arguments))
                {
                    return false;
                }
            }

            return true;
        }
    }

    /// <summary>Rejects trees holding nodes the matcher does not compare field by field (blocks, loops, assignments...).</summary>
    private sealed class CacheabilityCheck : ExpressionVisitor
    {
        private bool _cacheable = true;

        public bool Check(Expression expression)
        {
            Visit(expression);
            return _cacheable;
        }

        public override Expression? Visit(Expression? node)
        {
            if (node is null || !_cacheable)
            {
                return node;
            }

            switch (node)
            {
                case BinaryExpression or UnaryExpression or MemberExpression or MethodCallExpression or LambdaExpression
                    or ParameterExpression or ConstantExpression or QueryParameterExpression or NewExpression
                    or NewArrayExpression or ConditionalExpression or TypeBinaryExpression or InvocationExpression
                    or DefaultExpression or IndexExpression:
                    return base.Visit(node);
                case MemberInitExpression init when init.Bindings.All(b => b is MemberAssignment):
                    return base.Visit(node);
                case ListInitExpression:
                    return base.Visit(node);
                default:
                    _cacheable = false;
                    return node;
            }
        }

        protected override Expression VisitExtension(Expression node) => node;
    }
}
