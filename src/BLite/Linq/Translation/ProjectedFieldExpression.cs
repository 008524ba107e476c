using System.Linq.Expressions;

namespace BLite.Linq.Translation;

/// <summary>
/// Stands for a stored field in a projection pushed down to raw documents: when the lambda runs,
/// <see cref="Row"/> is bound to the row of values read for the query (an <c>object?[]</c>)
/// and this node reads slot <see cref="Slot"/>. Renders as <c>$slot</c>.
/// </summary>
internal sealed class ProjectedFieldExpression : Expression
{
    public ProjectedFieldExpression(ParameterExpression parameter, int slot, Type type)
    {
        Row = parameter;
        Slot = slot;
        ValueType = type;
    }

    public ParameterExpression Row { get; }

    public int Slot { get; }

    private Type ValueType { get; }

    public override ExpressionType NodeType => ExpressionType.Extension;

    public override Type Type => ValueType;

    public override bool CanReduce => false;

    protected override Expression VisitChildren(ExpressionVisitor visitor) => this;

    public override string ToString() => "$" + Slot;
}
