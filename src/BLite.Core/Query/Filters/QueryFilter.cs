namespace BLite.Core.Query;

/// <summary>
/// A predicate over documents. Filters are immutable trees built from comparisons on
/// <see cref="FieldPath"/>s and the logical combinators; they say nothing about how a document is
/// stored, so the same tree is evaluated on raw C-BSON (<see cref="FilterEvaluator"/>), rendered
/// for Explain, and analysed by the <see cref="QueryPlanner"/>. Semantics are described in
/// docs/query.md.
/// </summary>
public abstract class QueryFilter
{
    private protected QueryFilter() { }

    /// <summary>Renders the filter as MongoDB-style JSON (parameters as <c>@pN</c>).</summary>
    public override string ToString()
    {
        var text = new System.Text.StringBuilder();
        FilterText.Append(text, this);
        return text.ToString();
    }

    public static QueryFilter Eq(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Eq, value);

    public static QueryFilter Eq(FieldPath path, BsonValue value) => Eq(path, FilterOperand.FromConstant(value));

    public static QueryFilter Ne(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Ne, value);

    public static QueryFilter Ne(FieldPath path, BsonValue value) => Ne(path, FilterOperand.FromConstant(value));

    public static QueryFilter Gt(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Gt, value);

    public static QueryFilter Gt(FieldPath path, BsonValue value) => Gt(path, FilterOperand.FromConstant(value));

    public static QueryFilter Gte(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Gte, value);

    public static QueryFilter Gte(FieldPath path, BsonValue value) => Gte(path, FilterOperand.FromConstant(value));

    public static QueryFilter Lt(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Lt, value);

    public static QueryFilter Lt(FieldPath path, BsonValue value) => Lt(path, FilterOperand.FromConstant(value));

    public static QueryFilter Lte(FieldPath path, FilterOperand value) => new ComparisonFilter(path, ComparisonOperator.Lte, value);

    public static QueryFilter Lte(FieldPath path, BsonValue value) => Lte(path, FilterOperand.FromConstant(value));

    /// <summary>Matches when the path reaches a value equal to one of the array's items.</summary>
    public static QueryFilter In(FieldPath path, FilterOperand values) => new InFilter(path, values, negated: false);

    public static QueryFilter In(FieldPath path, BsonValue values) => In(path, FilterOperand.FromConstant(values));

    public static QueryFilter Nin(FieldPath path, FilterOperand values) => new InFilter(path, values, negated: true);

    public static QueryFilter Nin(FieldPath path, BsonValue values) => Nin(path, FilterOperand.FromConstant(values));

    public static QueryFilter Exists(FieldPath path, bool exists = true) => new ExistsFilter(path, exists);

    public static QueryFilter StartsWith(FieldPath path, FilterOperand prefix) => new StringMatchFilter(path, StringMatchKind.StartsWith, prefix);

    public static QueryFilter StartsWith(FieldPath path, BsonValue prefix) => StartsWith(path, FilterOperand.FromConstant(prefix));

    public static QueryFilter EndsWith(FieldPath path, FilterOperand suffix) => new StringMatchFilter(path, StringMatchKind.EndsWith, suffix);

    public static QueryFilter EndsWith(FieldPath path, BsonValue suffix) => EndsWith(path, FilterOperand.FromConstant(suffix));

    public static QueryFilter Contains(FieldPath path, FilterOperand substring) => new StringMatchFilter(path, StringMatchKind.Contains, substring);

    public static QueryFilter Contains(FieldPath path, BsonValue substring) => Contains(path, FilterOperand.FromConstant(substring));

    public static QueryFilter ElemMatch(FieldPath path, QueryFilter elementFilter) => new ElemMatchFilter(path, elementFilter);

    public static QueryFilter And(params QueryFilter[] filters) => new AndFilter(filters);

    public static QueryFilter And(IEnumerable<QueryFilter> filters) => new AndFilter(filters);

    public static QueryFilter Or(params QueryFilter[] filters) => new OrFilter(filters);

    public static QueryFilter Or(IEnumerable<QueryFilter> filters) => new OrFilter(filters);

    public static QueryFilter Not(QueryFilter filter) => new NotFilter(filter);

    /// <summary>Matches every document (the empty JSON filter <c>{}</c>).</summary>
    public static QueryFilter All => AndFilter.Empty;
}

public enum ComparisonOperator
{
    Eq,
    Ne,
    Gt,
    Gte,
    Lt,
    Lte,
}

public enum StringMatchKind
{
    StartsWith,
    EndsWith,
    /// <summary>Ordinal substring search.</summary>
    Contains,

    /// <summary>Whole-string equality (used with <see cref="StringMatchFilter.IgnoreCase"/>; a case-sensitive one is <c>$eq</c>).</summary>
    Equal,
}
