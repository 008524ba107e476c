using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Computes an <see cref="ArrayAggregateValue"/> by walking the raw items of the array: each item
/// is handed to the element node as a span, so neither the array nor its items are decoded into
/// objects; only the numbers the aggregate needs are read.
/// </summary>
internal sealed class ArrayAggregateValueNode(ArrayAggregateValue definition, FieldValueNode array, ValueNode element, MatchNode? itemFilter) : ValueNode
{
    public override BsonValue Evaluate(BsonType type, ReadOnlySpan<byte> value)
    {
        if (!array.TryLocate(type, value, out var foundType, out var found) || foundType != BsonType.Array)
        {
            return BsonValue.Null;
        }

        var accumulator = new Accumulator(definition.Aggregate, definition.Kind);
        var reader = new BsonSpanReader(found);
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var itemType))
        {
            var raw = reader.ReadRawValue(itemType);
            if (itemFilter is not null && !itemFilter.Matches(itemType, raw))
            {
                continue;
            }

            var item = element.Evaluate(itemType, raw);
            if (item.IsNull || !item.IsNumeric)
            {
                if (definition.ElementNullable)
                {
                    continue;
                }

                item = 0;
            }

            accumulator.Add(item);
        }

        return accumulator.Result();
    }

    /// <summary>Enumerable's arithmetic at one numeric type: checked integer and decimal sums, NaN rules of Min and Max on doubles.</summary>
    private struct Accumulator(ArrayAggregate aggregate, NumericKind kind)
    {
        private long _integer;
        private double _double;
        private decimal _decimal;
        private int _count;

        public void Add(BsonValue item)
        {
            switch (kind)
            {
                case NumericKind.Int32:
                case NumericKind.Int64:
                    var integer = kind == NumericKind.Int32 ? unchecked((int)Integer(item)) : Integer(item);
                    _integer = aggregate switch
                    {
                        ArrayAggregate.Min => _count == 0 ? integer : Math.Min(_integer, integer),
                        ArrayAggregate.Max => _count == 0 ? integer : Math.Max(_integer, integer),
                        _ => checked(_integer + integer),
                    };
                    if (kind == NumericKind.Int32 && aggregate is ArrayAggregate.Sum or ArrayAggregate.Count)
                    {
                        _ = checked((int)_integer);
                    }

                    break;
                case NumericKind.Double:
                    var number = item.ToDouble();
                    _double = aggregate switch
                    {
                        ArrayAggregate.Min => _count == 0 || number < _double || double.IsNaN(number) ? number : _double,
                        ArrayAggregate.Max => _count == 0 || number > _double || double.IsNaN(_double) ? number : _double,
                        _ => _double + number,
                    };
                    break;
                default:
                    var money = item.ToDecimal();
                    _decimal = aggregate switch
                    {
                        ArrayAggregate.Min => _count == 0 ? money : Math.Min(_decimal, money),
                        ArrayAggregate.Max => _count == 0 ? money : Math.Max(_decimal, money),
                        _ => _decimal + money,
                    };
                    break;
            }

            _count++;
        }

        /// <summary>A stored fraction read at an integer type truncates, as a C# cast (and the projection's own conversion) would.</summary>
        private static long Integer(BsonValue item) => item.Type switch
        {
            BsonType.Double => unchecked((long)item.AsDouble),
            BsonType.Decimal128 => decimal.ToInt64(decimal.Truncate(item.AsDecimal)),
            _ => item.ToInt64(),
        };

        public readonly BsonValue Result()
        {
            if (_count == 0 && aggregate is not (ArrayAggregate.Sum or ArrayAggregate.Count))
            {
                return BsonValue.Null;
            }

            return (aggregate, kind) switch
            {
                (ArrayAggregate.Average, NumericKind.Decimal) => _decimal / _count,
                (ArrayAggregate.Average, NumericKind.Double) => _double / _count,
                (ArrayAggregate.Average, _) => (double)_integer / _count,
                (_, NumericKind.Int32) => (int)_integer,
                (_, NumericKind.Int64) => _integer,
                (_, NumericKind.Double) => _double,
                _ => _decimal,
            };
        }
    }
}
