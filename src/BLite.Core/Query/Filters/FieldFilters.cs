namespace BLite.Core.Query;

/// <summary>A filter that tests the value(s) a single field path reaches.</summary>
public abstract class FieldFilter : QueryFilter
{
    private protected FieldFilter(FieldPath path)
    {
        ArgumentNullException.ThrowIfNull(path);
        Path = path;
    }

    public FieldPath Path { get; }
}

/// <summary><c>path op value</c>; numbers of any width compare by value, strings ordinally.</summary>
public sealed class ComparisonFilter : FieldFilter
{
    public ComparisonFilter(FieldPath path, ComparisonOperator op, FilterOperand value) : base(path)
    {
        Operator = op;
        Value = value;
    }

    public ComparisonOperator Operator { get; }

    public FilterOperand Value { get; }
}

/// <summary><c>$in</c> / <c>$nin</c>: the operand resolves to an array of candidate values.</summary>
public sealed class InFilter : FieldFilter
{
    public InFilter(FieldPath path, FilterOperand values, bool negated) : base(path)
    {
        Values = values;
        Negated = negated;
    }

    public FilterOperand Values { get; }

    /// <summary>True for <c>$nin</c>, the exact negation of <c>$in</c>.</summary>
    public bool Negated { get; }
}

/// <summary><c>$exists</c>: whether the path reaches any value at all (a stored null counts).</summary>
public sealed class ExistsFilter : FieldFilter
{
    public ExistsFilter(FieldPath path, bool exists) : base(path) => MustExist = exists;

    /// <summary>True for <c>$exists: true</c>, false for <c>$exists: false</c>.</summary>
    public bool MustExist { get; }
}

/// <summary>
/// Ordinal string prefix / suffix / substring / equality tests, optionally ignoring case as
/// <see cref="StringComparison.OrdinalIgnoreCase"/> does; non-strings never match.
/// </summary>
public sealed class StringMatchFilter : FieldFilter
{
    public StringMatchFilter(FieldPath path, StringMatchKind kind, FilterOperand value, bool ignoreCase = false) : base(path)
    {
        Kind = kind;
        Value = value;
        IgnoreCase = ignoreCase;
    }

    public StringMatchKind Kind { get; }

    /// <summary>Compare as <see cref="StringComparison.OrdinalIgnoreCase"/>; such a test never narrows an index scan.</summary>
    public bool IgnoreCase { get; }

    public FilterOperand Value { get; }
}

/// <summary>
/// Matches when the path reaches an array with at least one element satisfying
/// <see cref="ElementFilter"/>, whose paths are relative to the element (<see cref="FieldPath.Self"/>
/// is the element itself, for arrays of scalars).
/// </summary>
public sealed class ElemMatchFilter : FieldFilter
{
    public ElemMatchFilter(FieldPath path, QueryFilter elementFilter) : base(path)
    {
        ArgumentNullException.ThrowIfNull(elementFilter);
        ElementFilter = elementFilter;
    }

    public QueryFilter ElementFilter { get; }
}
