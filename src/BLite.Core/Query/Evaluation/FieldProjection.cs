using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Reads a few values straight from a raw C-BSON document, for projections that need only those:
/// stored fields (<see cref="FieldValue"/>) and values computed from one (a string's length or an
/// array's count, measured on the raw bytes; a date part). Nothing else is decoded (a string is
/// decoded only when its field is projected), and the documents on the way are walked, not
/// built. A path follows documents only; one that is absent, or meets an array or a scalar on
/// the way, reads as null.
/// </summary>
public sealed class FieldProjection
{
    private readonly ValueNode[] _nodes;

    /// <param name="parameters">
    /// This execution's values of the parameter slots the values use (a literal or captured value
    /// in an array aggregate's selector, <c>o.Lines.Sum(l => l.Qty * rate)</c>); null when they use none.
    /// </param>
    public FieldProjection(IReadOnlyList<ValueExpression> values, BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters = null)
    {
        ArgumentNullException.ThrowIfNull(values);
        ArgumentNullException.ThrowIfNull(dictionary);
        Values = values;
        _nodes = new ValueNode[values.Count];
        for (var i = 0; i < _nodes.Length; i++)
        {
            _nodes[i] = ValueNode.Build(values[i], dictionary, parameters);
        }
    }

    public IReadOnlyList<ValueExpression> Values { get; }

    /// <summary>True when some value reads a parameter slot: its reader must then be built per execution, with the parameters bound.</summary>
    public static bool UsesParameters(IReadOnlyList<ValueExpression> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return values.Any(UsesParameter);
    }

    private static bool UsesParameter(ValueExpression value) => value switch
    {
        OperandValue operand => operand.Operand.IsParameter,
        ComputedValue computed => UsesParameter(computed.Argument),
        ArithmeticValue arithmetic => UsesParameter(arithmetic.Left) || UsesParameter(arithmetic.Right),
        ArrayAggregateValue aggregate => UsesParameter(aggregate.Element) || (aggregate.ItemFilter is { } filter && FilterUsesParameter(filter)),
        _ => false,
    };

    private static bool FilterUsesParameter(QueryFilter filter) => filter switch
    {
        ComparisonFilter comparison => comparison.Value.IsParameter,
        InFilter inFilter => inFilter.Values.IsParameter,
        StringMatchFilter match => match.Value.IsParameter,
        ExpressionFilter expression => UsesParameter(expression.Left) || UsesParameter(expression.Right),
        ElemMatchFilter elemMatch => FilterUsesParameter(elemMatch.ElementFilter),
        AndFilter all => all.Filters.Any(FilterUsesParameter),
        OrFilter any => any.Filters.Any(FilterUsesParameter),
        NotFilter negation => FilterUsesParameter(negation.Filter),
        _ => false,
    };

    /// <summary>Fills <paramref name="values"/> (one slot per projected value) from <paramref name="document"/>.</summary>
    public void Read(ReadOnlySpan<byte> document, Span<BsonValue> values)
    {
        if (values.Length < _nodes.Length)
        {
            throw new ArgumentException($"{_nodes.Length} values are read, the span holds {values.Length}.", nameof(values));
        }

        for (var i = 0; i < _nodes.Length; i++)
        {
            values[i] = ReadValue(document, i);
        }
    }

    /// <summary>The value of <see cref="Values"/>[<paramref name="index"/>] in <paramref name="document"/>.</summary>
    public BsonValue ReadValue(ReadOnlySpan<byte> document, int index) => _nodes[index].Evaluate(BsonType.Document, document);

    /// <summary>One value as Explain prints it: a field as its path (<c>customer.city</c>), a computed one as <c>$count($lines)</c>.</summary>
    public static string Describe(ValueExpression value) => value is FieldValue field ? (field.Path.IsSelf ? "$" : field.Path.Path) : value.ToString();

    /// <summary>The values as Explain prints them: <c>_id, status, customer.billingAddress.city</c>.</summary>
    public static string Describe(IReadOnlyList<ValueExpression> values) => string.Join(", ", values.Select(Describe));
}
