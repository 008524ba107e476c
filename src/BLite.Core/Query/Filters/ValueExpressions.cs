namespace BLite.Core.Query;

/// <summary>
/// A value computed from one document for an <see cref="ExpressionFilter"/>: a stored field, a
/// constant or parameter, a computed member of a stored value (a string's length, an array's
/// count, a date's year) or arithmetic. It reads single values only: a path that crosses an array
/// reaches nothing, and a computation on null or on nothing is null.
/// </summary>
public abstract class ValueExpression
{
    private protected ValueExpression() { }

    public static ValueExpression Field(FieldPath path) => new FieldValue(path);

    public static ValueExpression Value(FilterOperand operand) => new OperandValue(operand);

    public static ValueExpression Compute(ValueFunction function, ValueExpression argument) => new ComputedValue(function, argument);

    public static ValueExpression Arithmetic(ArithmeticOperator op, ValueExpression left, ValueExpression right, NumericKind kind) =>
        new ArithmeticValue(op, left, right, kind);

    public static ValueExpression OverArray(ArrayAggregate aggregate, FieldPath array, ValueExpression element, NumericKind kind, bool elementNullable) =>
        new ArrayAggregateValue(aggregate, array, element, kind, elementNullable);

    /// <summary>The number of items of the array at <paramref name="array"/> that pass <paramref name="itemFilter"/> (every item when null), as an Int32.</summary>
    public static ValueExpression CountOverArray(FieldPath array, QueryFilter? itemFilter) =>
        new ArrayAggregateValue(ArrayAggregate.Count, array, Value(FilterOperand.FromConstant(1)), NumericKind.Int32, elementNullable: false) { ItemFilter = itemFilter };

    public override string ToString()
    {
        var text = new System.Text.StringBuilder();
        FilterText.AppendValue(text, this);
        return text.ToString();
    }
}

/// <summary>The value stored at a path (null when the path reaches nothing or crosses an array).</summary>
public sealed class FieldValue : ValueExpression
{
    public FieldValue(FieldPath path)
    {
        ArgumentNullException.ThrowIfNull(path);
        Path = path;
    }

    public FieldPath Path { get; }
}

public sealed class OperandValue(FilterOperand operand) : ValueExpression
{
    public FilterOperand Operand { get; } = operand;
}

public sealed class ComputedValue : ValueExpression
{
    public ComputedValue(ValueFunction function, ValueExpression argument)
    {
        ArgumentNullException.ThrowIfNull(argument);
        Function = function;
        Argument = argument;
    }

    public ValueFunction Function { get; }

    public ValueExpression Argument { get; }
}

/// <summary>
/// Arithmetic at the numeric type C# would use (<see cref="Kind"/>): Int32 and Int64 wrap on
/// overflow like unchecked C#, integer division truncates; a division by zero of integers or
/// decimals is null (C# would throw), of doubles infinity or NaN.
/// </summary>
public sealed class ArithmeticValue : ValueExpression
{
    public ArithmeticValue(ArithmeticOperator op, ValueExpression left, ValueExpression right, NumericKind kind)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        Operator = op;
        Left = left;
        Right = right;
        Kind = kind;
    }

    public ArithmeticOperator Operator { get; }

    public ValueExpression Left { get; }

    public ValueExpression Right { get; }

    public NumericKind Kind { get; }
}

/// <summary>
/// <c>o.Lines.Sum(l => l.Quantity)</c>: an aggregate over the items of the array stored at
/// <see cref="Array"/>, of <see cref="Element"/> computed on each item (a path relative to the
/// item; <see cref="FieldPath.Self"/> for an array of numbers). It follows
/// <c>Enumerable</c>'s rules at the numeric type <see cref="Kind"/>: Sum of nothing is 0, integer
/// sums are checked; Min, Max and Average of nothing are null. A null item value is skipped when
/// the element type is nullable, and counts as 0 otherwise, as the materialised default would.
/// A missing field, or one that is not an array, is null.
/// </summary>
public sealed class ArrayAggregateValue : ValueExpression
{
    public ArrayAggregateValue(ArrayAggregate aggregate, FieldPath array, ValueExpression element, NumericKind kind, bool elementNullable)
    {
        ArgumentNullException.ThrowIfNull(array);
        ArgumentNullException.ThrowIfNull(element);
        if (kind == NumericKind.String)
        {
            throw new ArgumentException("An array aggregate computes over numbers.", nameof(kind));
        }

        Aggregate = aggregate;
        Array = array;
        Element = element;
        Kind = kind;
        ElementNullable = elementNullable;
    }

    public ArrayAggregate Aggregate { get; }

    public FieldPath Array { get; }

    public ValueExpression Element { get; }

    public NumericKind Kind { get; }

    public bool ElementNullable { get; }

    /// <summary>For <see cref="ArrayAggregate.Count"/>: the condition an item must meet to be counted (paths relative to the item), or null for every item.</summary>
    public QueryFilter? ItemFilter { get; init; }
}

public enum ArrayAggregate
{
    Sum,
    Min,
    Max,

    /// <summary>A double, or a decimal when <see cref="ArrayAggregateValue.Kind"/> is Decimal.</summary>
    Average,

    /// <summary>The number of items passing <see cref="ArrayAggregateValue.ItemFilter"/>: an Int32, checked; 0 for no items.</summary>
    Count,
}

public enum ValueFunction
{
    /// <summary>UTF-16 length of a string, byte count of a binary.</summary>
    Length,

    /// <summary>Number of items of an array.</summary>
    Count,
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    DayOfYear,

    /// <summary>The date part of a DateTime (same Kind) or DateTimeOffset (as a DateTime).</summary>
    Date,

    /// <summary>Invariant upper case of a string.</summary>
    ToUpper,

    /// <summary>Invariant lower case of a string.</summary>
    ToLower,
}

public enum ArithmeticOperator
{
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

/// <summary>The numeric type an arithmetic node computes in; <see cref="String"/> is concatenation (Add only).</summary>
public enum NumericKind
{
    Int32,
    Int64,
    Double,
    Decimal,
    String,
}

/// <summary>
/// <c>left op right</c> over two computed values, with C#'s lifted-null rules: null equals only
/// null, and an ordering with a null side is false. Values of different type classes are unequal
/// and unordered; numbers compare by value and strings ordinally. Never served by an index.
/// </summary>
public sealed class ExpressionFilter : QueryFilter
{
    public ExpressionFilter(ValueExpression left, ComparisonOperator op, ValueExpression right)
    {
        ArgumentNullException.ThrowIfNull(left);
        ArgumentNullException.ThrowIfNull(right);
        Left = left;
        Operator = op;
        Right = right;
    }

    public ValueExpression Left { get; }

    public ComparisonOperator Operator { get; }

    public ValueExpression Right { get; }
}
