using System.Text;
using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>A prepared <see cref="ValueExpression"/>: computes one value from a raw document (or array element).</summary>
internal abstract class ValueNode
{
    public abstract BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value);

    public static ValueNode Build(ValueExpression expression, BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters) => expression switch
    {
        FieldValue field => new FieldValueNode(new CompiledPath(field.Path, dictionary), dictionary),
        OperandValue operand => new ConstantValueNode(operand.Operand.Resolve(parameters)),
        ComputedValue computed => new ComputedValueNode(computed.Function, Build(computed.Argument, dictionary, parameters)),
        ArithmeticValue arithmetic => new ArithmeticValueNode(arithmetic.Operator, arithmetic.Kind,
            Build(arithmetic.Left, dictionary, parameters), Build(arithmetic.Right, dictionary, parameters)),
        ArrayAggregateValue aggregate => new ArrayAggregateValueNode(aggregate,
            new FieldValueNode(new CompiledPath(aggregate.Array, dictionary), dictionary), Build(aggregate.Element, dictionary, parameters),
            aggregate.ItemFilter is { } itemFilter ? FilterEvaluator.BuildNode(itemFilter, dictionary, parameters) : null),
        _ => throw new ArgumentException($"Unknown value expression {expression.GetType().Name}.", nameof(expression)),
    };
}

internal sealed class ConstantValueNode(BsonValue constant) : ValueNode
{
    public override BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value) => constant;
}

/// <summary>Walks documents only: an array on the way, like a missing field, gives null.</summary>
internal sealed class FieldValueNode(CompiledPath path, BsonFieldDictionary dictionary) : ValueNode
{
    public bool TryLocate(BsonType type, ReadOnlySpan<byte> value, out BsonType foundType, out ReadOnlySpan<byte> found) =>
        path.TryLocateSingle(dictionary, type, value, out foundType, out found);

    public override BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value) =>
        TryLocate(type, value, out var foundType, out var found) ? RawValues.ToBsonValue(foundType, found, dictionary) : BsonValue.Null;
}

internal sealed class ComputedValueNode(ValueFunction function, ValueNode argument) : ValueNode
{
    public override BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value)
    {
        // Length and Count read the raw bytes: the string or array is never decoded.
        if (argument is FieldValueNode field && function is ValueFunction.Length or ValueFunction.Count)
        {
            return field.TryLocate(type, value, out var foundType, out var found) ? RawMeasure(function, foundType, found) : BsonValue.Null;
        }

        var input = argument.Evaluate(type, value);
        return input.IsNull ? BsonValue.Null : Apply(function, input);
    }

    private static BsonValue RawMeasure(ValueFunction function, BsonType type, ReadOnlySpan<byte> raw)
    {
        switch (type)
        {
            case BsonType.String when function == ValueFunction.Length:
                return Encoding.UTF8.GetCharCount(RawValues.StringBytes(raw));
            case BsonType.Array when function == ValueFunction.Count:
                var reader = new BsonSpanReader(raw);
                reader.ReadArrayStart();
                var count = 0;
                while (reader.TryReadItemHeader(out var itemType))
                {
                    reader.SkipValue(itemType);
                    count++;
                }

                return count;
            case BsonType.Binary when function == ValueFunction.Length:
                return System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(raw);
            default:
                return BsonValue.Null;
        }
    }

    private static BsonValue Apply(ValueFunction function, BsonValue input) => (function, input.Type) switch
    {
        (ValueFunction.Length, BsonType.String) => input.AsString.Length,
        (ValueFunction.Length, BsonType.Binary) => input.AsBinary.Length,
        (ValueFunction.Count, BsonType.Array) => input.AsArray.Count,
        (ValueFunction.ToUpper, BsonType.String) => input.AsString.ToUpperInvariant(),
        (ValueFunction.ToLower, BsonType.String) => input.AsString.ToLowerInvariant(),
        (ValueFunction.Date, BsonType.DateTime) => input.AsDateTime.Date,
        (ValueFunction.Date, BsonType.DateTimeOffset) => input.AsDateTimeOffset.Date,
        (_, BsonType.DateTime) => DatePart(function, input.AsDateTime),
        (_, BsonType.DateTimeOffset) => DatePart(function, input.AsDateTimeOffset.DateTime),
        (ValueFunction.Year, BsonType.DateOnly) => input.AsDateOnly.Year,
        (ValueFunction.Month, BsonType.DateOnly) => input.AsDateOnly.Month,
        (ValueFunction.Day, BsonType.DateOnly) => input.AsDateOnly.Day,
        (ValueFunction.DayOfYear, BsonType.DateOnly) => input.AsDateOnly.DayOfYear,
        (ValueFunction.Hour, BsonType.TimeOnly) => input.AsTimeOnly.Hour,
        (ValueFunction.Minute, BsonType.TimeOnly) => input.AsTimeOnly.Minute,
        (ValueFunction.Second, BsonType.TimeOnly) => input.AsTimeOnly.Second,
        _ => BsonValue.Null,
    };

    private static BsonValue DatePart(ValueFunction function, DateTime value) => function switch
    {
        ValueFunction.Year => value.Year,
        ValueFunction.Month => value.Month,
        ValueFunction.Day => value.Day,
        ValueFunction.Hour => value.Hour,
        ValueFunction.Minute => value.Minute,
        ValueFunction.Second => value.Second,
        ValueFunction.DayOfYear => value.DayOfYear,
        _ => BsonValue.Null,
    };
}

internal sealed class ArithmeticValueNode(ArithmeticOperator op, NumericKind kind, ValueNode left, ValueNode right) : ValueNode
{
    public override BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value)
    {
        var l = left.Evaluate(type, value);
        if (l.IsNull)
        {
            return BsonValue.Null;
        }

        var r = right.Evaluate(type, value);
        if (r.IsNull)
        {
            return BsonValue.Null;
        }

        if (kind == NumericKind.String)
        {
            return l.IsString && r.IsString && op == ArithmeticOperator.Add ? string.Concat(l.AsString, r.AsString) : BsonValue.Null;
        }

        if (!l.IsNumeric || !r.IsNumeric)
        {
            return BsonValue.Null;
        }

        return kind switch
        {
            NumericKind.Int32 => Int32(unchecked((int)l.ToInt64()), unchecked((int)r.ToInt64())),
            NumericKind.Int64 => Int64(l.ToInt64(), r.ToInt64()),
            NumericKind.Double => Double(l.ToDouble(), r.ToDouble()),
            _ => Decimal(l.ToDecimal(), r.ToDecimal()),
        };
    }

    private BsonValue Int32(int a, int b) => op switch
    {
        ArithmeticOperator.Add => unchecked(a + b),
        ArithmeticOperator.Subtract => unchecked(a - b),
        ArithmeticOperator.Multiply => unchecked(a * b),
        ArithmeticOperator.Divide => b == 0 ? BsonValue.Null : a == int.MinValue && b == -1 ? a : a / b,
        _ => b == 0 ? BsonValue.Null : b == -1 ? 0 : a % b,
    };

    private BsonValue Int64(long a, long b) => op switch
    {
        ArithmeticOperator.Add => unchecked(a + b),
        ArithmeticOperator.Subtract => unchecked(a - b),
        ArithmeticOperator.Multiply => unchecked(a * b),
        ArithmeticOperator.Divide => b == 0 ? BsonValue.Null : a == long.MinValue && b == -1 ? a : a / b,
        _ => b == 0 ? BsonValue.Null : b == -1 ? 0L : a % b,
    };

    private BsonValue Double(double a, double b) => op switch
    {
        ArithmeticOperator.Add => a + b,
        ArithmeticOperator.Subtract => a - b,
        ArithmeticOperator.Multiply => a * b,
        ArithmeticOperator.Divide => a / b,
        _ => a % b,
    };

    private BsonValue Decimal(decimal a, decimal b)
    {
        try
        {
            return op switch
            {
                ArithmeticOperator.Add => a + b,
                ArithmeticOperator.Subtract => a - b,
                ArithmeticOperator.Multiply => a * b,
                ArithmeticOperator.Divide => b == 0 ? BsonValue.Null : a / b,
                _ => b == 0 ? BsonValue.Null : a % b,
            };
        }
        catch (OverflowException)
        {
            // C# would throw; a filter cannot, so an out-of-range result matches nothing.
            return BsonValue.Null;
        }
    }
}

/// <summary>Compares two computed values with C#'s lifted-null rules (see <see cref="ExpressionFilter"/>).</summary>
internal sealed class ExpressionMatchNode(ValueNode left, ComparisonOperator op, ValueNode right) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value) =>
        Compare(left.Evaluate(type, value), op, right.Evaluate(type, value));

    public static bool Compare(BsonValue l, ComparisonOperator op, BsonValue r)
    {
        if (l.IsNull || r.IsNull)
        {
            return op switch
            {
                ComparisonOperator.Eq => l.IsNull && r.IsNull,
                ComparisonOperator.Ne => !(l.IsNull && r.IsNull),
                _ => false,
            };
        }

        if (BsonValue.TypeClassOf(l.Type) != BsonValue.TypeClassOf(r.Type))
        {
            return op == ComparisonOperator.Ne;
        }

        var order = l.CompareTo(r);
        return op switch
        {
            ComparisonOperator.Eq => order == 0,
            ComparisonOperator.Ne => order != 0,
            ComparisonOperator.Gt => order > 0,
            ComparisonOperator.Gte => order >= 0,
            ComparisonOperator.Lt => order < 0,
            _ => order <= 0,
        };
    }
}
