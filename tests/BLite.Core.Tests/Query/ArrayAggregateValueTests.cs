using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>Sum, Min, Max and Average over the raw items of a stored array (a projection's <c>o.Lines.Sum(l => l.Qty)</c>).</summary>
public class ArrayAggregateValueTests
{
    private const string Order = """
        { "lines": [ { "qty": 2, "price": 1.5 }, { "qty": null, "price": 4.0 }, { "price": 0.5 }, { "qty": 5, "price": 2.0 } ],
          "scores": [ 1.5, 2.5, 5.0 ], "empty": [], "name": "x" }
        """;

    private static BsonValue Read(string json, ValueExpression value)
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = BsonDocument.Parse(json).ToBytes(dictionary);
        return new FieldProjection([value], dictionary).ReadValue(bytes, 0);
    }

    private static ValueExpression Over(ArrayAggregate aggregate, string array, string? item, NumericKind kind, bool nullable) =>
        ValueExpression.OverArray(aggregate, FieldPath.Parse(array), ValueExpression.Field(item is null ? FieldPath.Self : FieldPath.Parse(item)), kind, nullable);

    [Theory]
    [InlineData(ArrayAggregate.Sum, true, 7)]
    [InlineData(ArrayAggregate.Sum, false, 7)]
    [InlineData(ArrayAggregate.Min, true, 2)]
    [InlineData(ArrayAggregate.Min, false, 0)]
    [InlineData(ArrayAggregate.Max, false, 5)]
    public void Null_and_missing_items_are_skipped_when_nullable_and_zero_otherwise(ArrayAggregate aggregate, bool nullable, int expected)
    {
        var value = Read(Order, Over(aggregate, "lines", "qty", NumericKind.Int32, nullable));
        Assert.Equal(BsonType.Int32, value.Type);
        Assert.Equal(expected, value.AsInt32);
    }

    [Fact]
    public void Averages_are_doubles_for_integers_and_decimals_for_decimals()
    {
        Assert.Equal(3.5, Read(Order, Over(ArrayAggregate.Average, "lines", "qty", NumericKind.Int32, nullable: true)).AsDouble);
        Assert.Equal(1.75, Read(Order, Over(ArrayAggregate.Average, "lines", "qty", NumericKind.Int32, nullable: false)).AsDouble);
        Assert.Equal(2m, Read(Order, Over(ArrayAggregate.Average, "lines", "price", NumericKind.Decimal, nullable: false)).AsDecimal);
        Assert.Equal(3.0, Read(Order, Over(ArrayAggregate.Average, "scores", null, NumericKind.Double, nullable: false)).AsDouble);
        Assert.Equal(8L, Read(Order, Over(ArrayAggregate.Sum, "scores", null, NumericKind.Int64, nullable: false)).AsInt64); // 1 + 2 + 5: fractions truncate
    }

    [Fact]
    public void Count_counts_the_items_passing_its_condition_and_binds_parameters()
    {
        var cheap = ValueExpression.CountOverArray(FieldPath.Parse("lines"), QueryFilter.Lt(FieldPath.Parse("price"), 2.0));
        Assert.Equal(2, Read(Order, cheap).AsInt32);
        Assert.Equal(4, Read(Order, ValueExpression.CountOverArray(FieldPath.Parse("lines"), null)).AsInt32);
        Assert.Equal(0, Read(Order, ValueExpression.CountOverArray(FieldPath.Parse("empty"), QueryFilter.Lt(FieldPath.Parse("price"), 2.0))).AsInt32);
        Assert.Equal("$count($lines, { 'price': { '$lt': 2.0 } })", cheap.ToString());

        var withQty = ValueExpression.CountOverArray(FieldPath.Parse("lines"), QueryFilter.Gte(FieldPath.Parse("qty"), FilterOperand.FromParameter(0)));
        Assert.True(FieldProjection.UsesParameters([withQty]));
        Assert.False(FieldProjection.UsesParameters([cheap]));
        var dictionary = new BsonFieldDictionary();
        var bytes = BsonDocument.Parse(Order).ToBytes(dictionary);
        Assert.Equal(1, new FieldProjection([withQty], dictionary, [3]).ReadValue(bytes, 0).AsInt32);
        Assert.Equal(2, new FieldProjection([withQty], dictionary, [2]).ReadValue(bytes, 0).AsInt32);
    }

    [Fact]
    public void An_item_value_may_be_arithmetic_on_its_fields()
    {
        var value = ValueExpression.Arithmetic(ArithmeticOperator.Multiply, ValueExpression.Field(FieldPath.Parse("qty")), ValueExpression.Field(FieldPath.Parse("price")), NumericKind.Decimal);
        var sum = ValueExpression.OverArray(ArrayAggregate.Sum, FieldPath.Parse("lines"), value, NumericKind.Decimal, elementNullable: true);
        Assert.Equal(13m, Read(Order, sum).AsDecimal);
        Assert.Equal("$sum($lines, ($qty * $price))", sum.ToString());
    }

    [Fact]
    public void No_items_sum_to_zero_and_have_no_min_max_or_average()
    {
        Assert.Equal(0, Read(Order, Over(ArrayAggregate.Sum, "empty", "qty", NumericKind.Int32, nullable: false)).AsInt32);
        Assert.True(Read(Order, Over(ArrayAggregate.Min, "empty", "qty", NumericKind.Int32, nullable: false)).IsNull);
        Assert.True(Read(Order, Over(ArrayAggregate.Average, "empty", "qty", NumericKind.Double, nullable: true)).IsNull);
        Assert.True(Read(Order, Over(ArrayAggregate.Sum, "missing", "qty", NumericKind.Int32, nullable: false)).IsNull);
        Assert.True(Read(Order, Over(ArrayAggregate.Sum, "name", "qty", NumericKind.Int32, nullable: false)).IsNull);
    }

    [Fact]
    public void Integer_sums_are_checked_like_Enumerable_Sum()
    {
        const string big = """{ "values": [ 2147483647, 1 ] }""";
        Assert.Throws<OverflowException>(() => Read(big, Over(ArrayAggregate.Sum, "values", null, NumericKind.Int32, nullable: false)));
        Assert.Equal(2147483648L, Read(big, Over(ArrayAggregate.Sum, "values", null, NumericKind.Int64, nullable: false)).AsInt64);
        Assert.Equal(1073741824.0, Read(big, Over(ArrayAggregate.Average, "values", null, NumericKind.Int32, nullable: false)).AsDouble);
    }

    [Fact]
    public void A_double_min_is_NaN_when_any_item_is_and_a_max_ignores_NaN()
    {
        var items = new BsonDocument { { "v", new BsonArray([3.0, double.NaN, 1.0]) } };
        var dictionary = new BsonFieldDictionary();
        var bytes = items.ToBytes(dictionary);
        var min = new FieldProjection([Over(ArrayAggregate.Min, "v", null, NumericKind.Double, nullable: false)], dictionary).ReadValue(bytes, 0);
        var max = new FieldProjection([Over(ArrayAggregate.Max, "v", null, NumericKind.Double, nullable: false)], dictionary).ReadValue(bytes, 0);
        Assert.Equal(new[] { 3.0, double.NaN, 1.0 }.Min(), min.AsDouble);
        Assert.Equal(new[] { 3.0, double.NaN, 1.0 }.Max(), max.AsDouble);
    }
}
