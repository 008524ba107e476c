using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// A filter prepared for one execution: field names resolved to ids, parameters bound, constants
/// encoded as raw C-BSON. <see cref="Matches"/> then tests a document's bytes directly — nothing
/// is deserialized and nothing is allocated per document. Immutable and thread-safe once built.
/// </summary>
internal sealed class FilterEvaluator
{
    private readonly MatchNode _root;

    private FilterEvaluator(MatchNode root) => _root = root;

    /// <summary>An evaluator that accepts every document.</summary>
    public static FilterEvaluator MatchAll { get; } = new(new ConstantNode(true));

    /// <param name="filter">The filter; null matches every document.</param>
    /// <param name="dictionary">The database's field dictionary (only read, never extended).</param>
    /// <param name="parameters">Values of the filter's parameter slots for this execution.</param>
    public static FilterEvaluator Create(QueryFilter? filter, BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters = null)
    {
        ArgumentNullException.ThrowIfNull(dictionary);
        return filter is null ? MatchAll : new FilterEvaluator(new NodeBuilder(dictionary, parameters).Build(filter));
    }

    /// <summary>The match node of <paramref name="filter"/> alone, for a filter applied to values other than whole documents (an array's items).</summary>
    internal static MatchNode BuildNode(QueryFilter filter, BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters) =>
        new NodeBuilder(dictionary, parameters).Build(filter);

    /// <summary>Whether the C-BSON document passes the filter. Malformed bytes throw <see cref="BsonFormatException"/>.</summary>
    public bool Matches(ReadOnlySpan<byte> document) => _root.Matches(BsonType.Document, document);

    private sealed class NodeBuilder(BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters)
    {
        public MatchNode Build(QueryFilter filter) => filter switch
        {
            AndFilter all => all.Filters.Count == 0 ? new ConstantNode(true) : new AndNode(all.Filters.Select(Build).ToArray()),
            OrFilter any => any.Filters.Count == 0 ? new ConstantNode(false) : new OrNode(any.Filters.Select(Build).ToArray()),
            NotFilter negation => new NotNode(Build(negation.Filter)),
            ComparisonFilter { Operator: ComparisonOperator.Ne } ne =>
                new NotNode(Field(ne.Path, Comparison(ComparisonOperator.Eq, ne.Value.Resolve(parameters)))),
            ComparisonFilter comparison => Field(comparison.Path, Comparison(comparison.Operator, comparison.Value.Resolve(parameters))),
            InFilter inFilter => In(inFilter),
            ExistsFilter exists => exists.MustExist ? Field(exists.Path, ExistsLeaf.Instance) : new NotNode(Field(exists.Path, ExistsLeaf.Instance)),
            StringMatchFilter match => Field(match.Path, StringLeaf.Create(match.Kind, match.Value.Resolve(parameters), match.IgnoreCase)),
            ExpressionFilter expression => new ExpressionMatchNode(ValueNode.Build(expression.Left, dictionary, parameters), expression.Operator,
                ValueNode.Build(expression.Right, dictionary, parameters)),
            ElemMatchFilter elemMatch => Field(elemMatch.Path, new ElemMatchLeaf(Build(elemMatch.ElementFilter))),
            _ => throw new ArgumentException($"Unknown filter type {filter.GetType().Name}.", nameof(filter)),
        };

        private MatchNode Field(FieldPath path, LeafTest leaf) => new FieldNode(new CompiledPath(path, dictionary), leaf);

        private MatchNode In(InFilter inFilter)
        {
            var list = inFilter.Values.Resolve(parameters);
            if (list.Type != BsonType.Array)
            {
                throw new ArgumentException($"The operand of {(inFilter.Negated ? "$nin" : "$in")} on '{inFilter.Path}' must be an array, not {list}.");
            }

            var candidates = new List<RawConstant>();
            var matchesNull = false;
            foreach (var item in list.AsArray)
            {
                matchesNull |= item.IsNull;
                if (RawConstant.TryCreate(item, dictionary, out var raw))
                {
                    candidates.Add(raw);
                }
            }

            var node = Field(inFilter.Path, new InLeaf(candidates.ToArray(), matchesNull));
            return inFilter.Negated ? new NotNode(node) : node;
        }

        private LeafTest Comparison(ComparisonOperator op, BsonValue value)
        {
            if (value.IsNull)
            {
                // Null equals null and missing; nothing is strictly above or below null.
                return op is ComparisonOperator.Gt or ComparisonOperator.Lt ? NeverLeaf.Instance : NullLeaf.Instance;
            }

            return RawConstant.TryCreate(value, dictionary, out var constant) ? new ComparisonLeaf(op, constant) : NeverLeaf.Instance;
        }
    }
}
