using System.Linq.Expressions;

namespace BLite.Linq.Translation;

/// <summary>
/// Stands for a value computed outside the query (a literal, a captured variable, a method call on
/// captured values) after <see cref="ExpressionParameterizer"/> lifted it out, so queries that
/// differ only in such values share one cached translation. Renders as <c>@pN</c>.
/// </summary>
internal sealed class QueryParameterExpression : Expression
{
    public QueryParameterExpression(int index, Type type)
    {
        Index = index;
        ValueType = type;
    }

    public int Index { get; }

    private Type ValueType { get; }

    public override ExpressionType NodeType => ExpressionType.Extension;

    public override Type Type => ValueType;

    public override bool CanReduce => false;

    protected override Expression VisitChildren(ExpressionVisitor visitor) => this;

    public override string ToString() => "@p" + Index;
}
