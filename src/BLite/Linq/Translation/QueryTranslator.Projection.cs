using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Execution;

namespace BLite.Linq.Translation;

/// <summary>
/// Projection push-down: when the first in-memory step (a Select, a GroupBy with its Select, or
/// the selector of Min/Max/Sum/Average) reads the document only through stored scalar fields, it
/// is rewritten to read those fields from a row of values (<see cref="ProjectedFieldExpression"/>),
/// and the source hands back just those values from the raw bytes. The document object is never
/// built. Anything else (the whole document, a nested object, a list) keeps the materializing path.
/// </summary>
internal sealed partial class QueryTranslator
{
    private static readonly HashSet<string> GroupAggregates =
        [nameof(Enumerable.Count), nameof(Enumerable.LongCount), nameof(Enumerable.Sum), nameof(Enumerable.Min), nameof(Enumerable.Max),
         nameof(Enumerable.Average), nameof(Enumerable.Any), nameof(Enumerable.All)];

    /// <summary>
    /// The pushed-down form of a standalone selector over <paramref name="selector"/>'s parameter
    /// type, or null when it needs the whole document. Its literals and captured values are lifted
    /// once, as a query's are: <paramref name="values"/> are what the rewritten selector reads,
    /// <paramref name="parameters"/> what the field readers bind.
    /// </summary>
    /// <param name="blocker">When the plan is null: the construct that needs the document, as an error names it.</param>
    public static ProjectionPlan? TranslateProjection(LambdaExpression selector, IFieldPathResolver resolver, out object?[] values, out BsonValue[] parameters,
        out string? blocker)
    {
        var (shape, lifted) = ExpressionParameterizer.Parameterize(selector);
        var lambda = (LambdaExpression)shape;
        var translator = new QueryTranslator(resolver, lifted.Length) { _rootType = lambda.Parameters[0].Type };
        translator._post.Add(new PostOperation(PostOperationKind.Select, lambda, null));
        var plan = translator.TryPushDownProjection(null);
        blocker = translator._projectionBlocker;
        values = lifted;
        parameters = new BsonValue[lifted.Length];
        for (var i = 0; i < lifted.Length; i++)
        {
            parameters[i] = translator._parameterUses[i] == ParameterUse.Scalar
                ? ClrBsonConverter.ToBsonValue(lifted[i], resolver as IQueryValueConverter)
                : BsonValue.Null;
        }

        return plan;
    }

    private string? _projectionBlocker;

    private ProjectionPlan? TryPushDownProjection(LambdaExpression? terminalSelector)
    {
        var rewriter = new ProjectionRewriter(this, _rootType);
        var operations = new List<PostOperation>(_post);
        if (_post.Count > 0 && _post[0].Kind == PostOperationKind.Select)
        {
            operations[0] = _post[0] with { Lambda = rewriter.Rewrite(_post[0].Lambda!) };
        }
        else if (_post.Count > 1 && _post[0].Kind == PostOperationKind.GroupBy && _post[1].Kind == PostOperationKind.Select)
        {
            operations[0] = _post[0] with { Lambda = rewriter.Rewrite(_post[0].Lambda!) };
            rewriter.Group = _post[1].Lambda!.Parameters[0];
            operations[1] = _post[1] with { Lambda = rewriter.Rewrite(_post[1].Lambda!) };
        }
        else if (_post.Count == 0 && terminalSelector is not null)
        {
            terminalSelector = rewriter.Rewrite(terminalSelector);
        }
        else
        {
            return null;
        }

        _projectionBlocker = rewriter.Failed ? rewriter.DescribeBlocker() : rewriter.Fields.Count == 0 ? "it reads no stored field" : null;
        return rewriter.Failed || rewriter.Fields.Count == 0
            ? null
            : new ProjectionPlan(rewriter.Fields, rewriter.Types, operations, _post.Count == 0 ? terminalSelector : null);
    }

    private sealed class ProjectionRewriter(QueryTranslator translator, Type rootType) : ExpressionVisitor
    {
        private readonly Dictionary<string, int> _slots = new(StringComparer.Ordinal);

        public List<ValueExpression> Fields { get; } = [];

        public List<Type> Types { get; } = [];

        public bool Failed { get; private set; }

        /// <summary>The innermost expression that needs more than stored scalars: the document itself, or the member chain reaching an object or a collection.</summary>
        private Expression? _blocker;

        public string DescribeBlocker() => _blocker switch
        {
            ParameterExpression parameter when parameter == Group => $"it uses the group '{parameter.Name}' other than as g.Key or the source of Count, Sum, Min, Max, Average, Any or All",
            ParameterExpression parameter => $"it uses the whole document '{parameter.Name}'",
            { } node when IsCollection(node.Type) => $"'{node}' is a collection ({Describe(node.Type)}) used other than through Count, Sum, Min, Max, Average or Count(condition)",
            { } node => $"'{node}' is {(BsonClrConverter.CanRead(node.Type) ? "converted by the collection" : "a nested object")} ({Describe(node.Type)}), not a stored scalar",
            _ => "it uses the document",
        };

        private static string Describe(Type type) => type.IsGenericType
            ? $"{type.Name[..type.Name.IndexOf('`', StringComparison.Ordinal)]}<{string.Join(", ", type.GetGenericArguments().Select(Describe))}>"
            : type.Name;

        /// <summary>The group parameter of the Select after a GroupBy: usable only as g.Key and as the source of an aggregate.</summary>
        public ParameterExpression? Group { get; set; }

        public LambdaExpression Rewrite(LambdaExpression lambda) => (LambdaExpression)Visit(lambda);

        /// <summary>A lambda's own parameters are declarations, not uses of the document.</summary>
        protected override Expression VisitLambda<T>(Expression<T> node) => node.Update(Visit(node.Body), node.Parameters);

        protected override Expression VisitMember(MemberExpression node)
        {
            if (Group is not null && node.Expression == Group && node.Member.Name == nameof(IGrouping<object, object>.Key))
            {
                return node;
            }

            if (BsonClrConverter.CanRead(node.Type) && !IsConvertedByResolver(node.Type) && Root(node) is { } root)
            {
                if (!HasComputedMember(node) && translator.TryPath(node, root, out var path, throwIfNotStored: false))
                {
                    return new ProjectedFieldExpression(root, Slot(ValueExpression.Field(path), node.Type), node.Type);
                }

                if (IsComputedMember(node) && TryComputedOfField(node, root) is { } computed)
                {
                    return new ProjectedFieldExpression(root, Slot(computed, node.Type), node.Type);
                }
            }

            var failedBefore = Failed;
            var visited = base.VisitMember(node);
            if (!failedBefore && Failed && (_blocker == node.Expression || _blocker is null))
            {
                _blocker = node;
            }

            return visited;
        }

        protected override Expression VisitMethodCall(MethodCallExpression node)
        {
            if (Group is not null && node.Object is null && node.Arguments.Count > 0 && node.Arguments[0] == Group
                && node.Method.DeclaringType == typeof(Enumerable) && GroupAggregates.Contains(node.Method.Name))
            {
                var arguments = new Expression[node.Arguments.Count];
                arguments[0] = Group;
                for (var i = 1; i < arguments.Length; i++)
                {
                    arguments[i] = Visit(node.Arguments[i]);
                }

                return node.Update(null, arguments);
            }

            if (node.Method.DeclaringType == typeof(Enumerable) && node.Method.Name == nameof(Enumerable.Count) && node.Arguments.Count == 1
                && Root(node.Arguments[0]) is { } root && TryComputedOfField(node, root) is { } count)
            {
                return new ProjectedFieldExpression(root, Slot(count, node.Type), node.Type);
            }

            if (node.Arguments.Count > 0 && Root(node.Arguments[0]) is { } arrayRoot && translator.TryArrayAggregate(node, arrayRoot, out var aggregate))
            {
                return new ProjectedFieldExpression(arrayRoot, Slot(aggregate, node.Type), node.Type);
            }

            return base.VisitMethodCall(node);
        }

        protected override Expression VisitParameter(ParameterExpression node)
        {
            // Reached only when the document (or the group of documents) is used as a whole.
            if (node.Type == rootType || node == Group)
            {
                Failed = true;
                _blocker ??= node;
            }

            return node;
        }

        protected override Expression VisitExtension(Expression node) => node;

        /// <summary>A length, count or date part of one stored field: measured on the raw bytes, the field itself never decoded into an object.</summary>
        private ValueExpression? TryComputedOfField(Expression node, ParameterExpression root) =>
            translator.TryValue(node, root, out var value) && value is ComputedValue { Argument: FieldValue } computed
            && computed.Function is not (ValueFunction.ToUpper or ValueFunction.ToLower)
                ? computed
                : null;

        private bool IsConvertedByResolver(Type type) =>
            translator._resolver is IQueryValueConverter converter && converter.Converts(Nullable.GetUnderlyingType(type) ?? type);

        private ParameterExpression? Root(Expression node)
        {
            var current = node;
            while (true)
            {
                switch (current)
                {
                    case MemberExpression { Expression: { } target }:
                        current = target;
                        break;
                    case UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked } convert:
                        current = convert.Operand;
                        break;
                    case ParameterExpression parameter when parameter.Type == rootType:
                        return parameter;
                    default:
                        return null;
                }
            }
        }

        private int Slot(ValueExpression value, Type type)
        {
            var key = value.ToString();
            if (!_slots.TryGetValue(key, out var slot))
            {
                slot = Fields.Count;
                _slots.Add(key, slot);
                Fields.Add(value);
                Types.Add(type);
            }
            else if (Types[slot] != type)
            {
                // One path read as two CLR types (o.Discount and o.Discount.Value): keep the nullable one.
                Types[slot] = Nullable.GetUnderlyingType(type) is not null ? type : Types[slot];
            }

            return slot;
        }
    }
}
