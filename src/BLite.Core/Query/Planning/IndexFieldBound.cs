namespace BLite.Core.Query;

internal enum IndexBoundKind
{
    /// <summary>One value (<see cref="IndexFieldBound.Values"/> has one scalar operand).</summary>
    Equal,

    /// <summary>Any of several values: each operand of <see cref="IndexFieldBound.Values"/> is an array (from <c>$in</c>) or a scalar (from an <c>$or</c> of equalities).</summary>
    In,

    /// <summary>An interval; either side may be open.</summary>
    Range,

    /// <summary>Strings starting with <see cref="IndexFieldBound.Prefix"/>.</summary>
    Prefix,
}

/// <summary>
/// The condition a plan puts on one index field, still in terms of operands (so it holds for every
/// execution of a cached query shape). A plan's bounds are equalities / IN on leading fields,
/// then at most one range or prefix on the next field.
/// </summary>
internal sealed class IndexFieldBound
{
    internal IndexFieldBound(FieldPath path, IndexBoundKind kind, IReadOnlyList<FilterOperand> values)
    {
        Path = path;
        Kind = kind;
        Values = values;
    }

    public FieldPath Path { get; }

    public IndexBoundKind Kind { get; }

    /// <summary>The operands of an <see cref="IndexBoundKind.Equal"/> or <see cref="IndexBoundKind.In"/> bound.</summary>
    public IReadOnlyList<FilterOperand> Values { get; }

    public FilterOperand? Lower { get; internal init; }

    public bool LowerInclusive { get; internal init; }

    public FilterOperand? Upper { get; internal init; }

    public bool UpperInclusive { get; internal init; }

    public FilterOperand? Prefix { get; internal init; }

    public override string ToString() => Kind switch
    {
        IndexBoundKind.Equal => $"{Path} = {Values[0]}",
        IndexBoundKind.In => $"{Path} in [{string.Join(", ", Values)}]",
        IndexBoundKind.Prefix => $"{Path} starts with {Prefix}",
        _ => $"{Path} in {(LowerInclusive ? '[' : '(')}{Lower?.ToString() ?? "-inf"}, {Upper?.ToString() ?? "+inf"}{(UpperInclusive ? ']' : ')')}",
    };
}
