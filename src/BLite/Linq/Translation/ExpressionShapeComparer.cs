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

    public static bool IsCacheable(Expression expression) => new CacheabilityCheck().Check(expression);

    public bool Equals(Expression? x, Expression? y) => new Matcher().Match(x, y);

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

    private sealed class Matcher
    {
        private readonly List<LambdaExpression> _leftScopes = [];
        private readonly List<LambdaExpression> _rightScopes = [];

        public bool Match(Expression? x, Expression? y)
        {
            if (ReferenceEquals(x, y))
            {
                return true;
            }

            if (x is null || y is null || x.NodeType != y.NodeType || x.Type != y.Type)
            {
                return false;
            }

            return (x, y) switch
            {
                (BinaryExpression a, BinaryExpression b) => a.Method == b.Method && a.IsLiftedToNull == b.IsLiftedToNull
                    && Match(a.Left, b.Left) && Match(a.Right, b.Right) && Match(a.Conversion, b.Conversion),
                (UnaryExpression a, UnaryExpression b) => a.Method == b.Method && Match(a.Operand, b.Operand),
                (MemberExpression a, MemberExpression b) => a.Member == b.Member && Match(a.Expression, b.Expression),
                (MethodCallExpression a, MethodCallExpression b) => a.Method == b.Method && Match(a.Object, b.Object) && MatchAll(a.Arguments, b.Arguments),
                (LambdaExpression a, LambdaExpression b) => MatchLambda(a, b),
                (ParameterExpression a, ParameterExpression b) => ParameterPosition(a, _leftScopes) == ParameterPosition(b, _rightScopes),
                (ConstantExpression a, ConstantExpression b) => MatchConstant(a.Value, b.Value),
                (QueryParameterExpression a, QueryParameterExpression b) => a.Index == b.Index,
                (NewExpression a, NewExpression b) => a.Constructor == b.Constructor && MatchAll(a.Arguments, b.Arguments) && MatchMembers(a.Members, b.Members),
                (MemberInitExpression a, MemberInitExpression b) => Match(a.NewExpression, b.NewExpression) && MatchBindings(a.Bindings, b.Bindings),
                (ListInitExpression a, ListInitExpression b) => Match(a.NewExpression, b.NewExpression) && MatchInitializers(a.Initializers, b.Initializers),
                (NewArrayExpression a, NewArrayExpression b) => MatchAll(a.Expressions, b.Expressions),
                (ConditionalExpression a, ConditionalExpression b) => Match(a.Test, b.Test) && Match(a.IfTrue, b.IfTrue) && Match(a.IfFalse, b.IfFalse),
                (TypeBinaryExpression a, TypeBinaryExpression b) => a.TypeOperand == b.TypeOperand && Match(a.Expression, b.Expression),
                (InvocationExpression a, InvocationExpression b) => Match(a.Expression, b.Expression) && MatchAll(a.Arguments, b.Arguments),
                (DefaultExpression, DefaultExpression) => true,
                (IndexExpression a, IndexExpression b) => a.Indexer == b.Indexer && Match(a.Object, b.Object) && MatchAll(a.Arguments, b.Arguments),
                _ => false,
            };
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

            _leftScopes.Add(a);
            _rightScopes.Add(b);
            var equal = Match(a.Body, b.Body);
            _leftScopes.RemoveAt(_leftScopes.Count - 1);
            _rightScopes.RemoveAt(_rightScopes.Count - 1);
            return equal;
        }

        private static (int Scope, int Index) ParameterPosition(ParameterExpression parameter, List<LambdaExpression> scopes)
        {
            for (var scope = scopes.Count - 1; scope >= 0; scope--)
            {
                var index = scopes[scope].Parameters.IndexOf(parameter);
                if (index >= 0)
                {
                    return (scope, index);
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
