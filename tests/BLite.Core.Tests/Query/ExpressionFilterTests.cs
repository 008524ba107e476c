using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>Computed values and case-insensitive string tests, evaluated on raw C-BSON.</summary>
public class ExpressionFilterTests
{
    private static bool Evaluate(string json, QueryFilter filter)
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = BsonDocument.Parse(json).ToBytes(dictionary);
        return FilterEvaluator.Create(filter, dictionary).Matches(bytes);
    }

    private static ValueExpression Field(string path) => ValueExpression.Field(FieldPath.Parse(path));

    private static ValueExpression Constant(BsonValue value) => ValueExpression.Value(FilterOperand.FromConstant(value));

    [Theory]
    [InlineData("""{ "a": 5, "b": 3 }""", true)]
    [InlineData("""{ "a": 3, "b": 3 }""", false)]
    [InlineData("""{ "a": 5.5, "b": { "$numberDecimal": "5" } }""", true)]
    [InlineData("""{ "a": 5, "b": null }""", false)]
    [InlineData("""{ "a": 5 }""", false)]
    [InlineData("""{ "a": "5", "b": 3 }""", false)]
    public void Two_fields_compare_by_value_and_null_orders_nothing(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, new ExpressionFilter(Field("a"), ComparisonOperator.Gt, Field("b"))));

    [Theory]
    [InlineData("""{ "a": null, "b": null }""", true)]
    [InlineData("""{ "b": null }""", true)]
    [InlineData("""{ "a": 1, "b": null }""", false)]
    [InlineData("""{ "a": 1, "b": "1" }""", false)]
    public void Equality_of_two_fields_follows_lifted_null_rules(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, new ExpressionFilter(Field("a"), ComparisonOperator.Eq, Field("b"))));

    [Theory]
    [InlineData("""{ "name": "héllo", "tags": [1, 2, 3] }""", ValueFunction.Length, 5)]
    [InlineData("""{ "name": "x", "tags": [1, 2, 3] }""", ValueFunction.Count, 3)]
    public void Length_and_count_read_the_raw_value(string json, ValueFunction function, int expected)
    {
        var path = function == ValueFunction.Length ? "name" : "tags";
        Assert.True(Evaluate(json, new ExpressionFilter(ValueExpression.Compute(function, Field(path)), ComparisonOperator.Eq, Constant(expected))));
        Assert.False(Evaluate(json, new ExpressionFilter(ValueExpression.Compute(function, Field(path)), ComparisonOperator.Gt, Constant(expected))));
    }

    [Fact]
    public void Date_parts_case_and_arithmetic_compute_like_csharp()
    {
        const string json = """{ "at": { "$date": "2024-03-09T22:15:00Z" }, "q": 7, "p": { "$numberDecimal": "2.5" }, "s": "Ab" }""";
        Assert.True(Evaluate(json, new ExpressionFilter(ValueExpression.Compute(ValueFunction.Month, Field("at")), ComparisonOperator.Eq, Constant(3))));
        Assert.True(Evaluate(json, new ExpressionFilter(ValueExpression.Compute(ValueFunction.Hour, Field("at")), ComparisonOperator.Eq, Constant(22))));
        Assert.True(Evaluate(json, new ExpressionFilter(ValueExpression.Compute(ValueFunction.ToUpper, Field("s")), ComparisonOperator.Eq, Constant("AB"))));
        var product = ValueExpression.Arithmetic(ArithmeticOperator.Multiply, Field("q"), Field("p"), NumericKind.Decimal);
        Assert.True(Evaluate(json, new ExpressionFilter(product, ComparisonOperator.Eq, Constant(17.5m))));
        var quotient = ValueExpression.Arithmetic(ArithmeticOperator.Divide, Field("q"), Constant(2), NumericKind.Int32);
        Assert.True(Evaluate(json, new ExpressionFilter(quotient, ComparisonOperator.Eq, Constant(3))));
        var byZero = ValueExpression.Arithmetic(ArithmeticOperator.Divide, Field("q"), Constant(0), NumericKind.Int32);
        Assert.False(Evaluate(json, new ExpressionFilter(byZero, ComparisonOperator.Gte, Constant(0))));
    }

    [Theory]
    [InlineData(StringMatchKind.StartsWith, "hEL", true)]
    [InlineData(StringMatchKind.EndsWith, "LO", true)]
    [InlineData(StringMatchKind.Contains, "ELL", true)]
    [InlineData(StringMatchKind.Equal, "HELLO", true)]
    [InlineData(StringMatchKind.Equal, "HELL", false)]
    [InlineData(StringMatchKind.StartsWith, "x", false)]
    public void Ignore_case_matches_agree_with_OrdinalIgnoreCase(StringMatchKind kind, string needle, bool expected)
    {
        var filter = new StringMatchFilter(FieldPath.Parse("s"), kind, FilterOperand.FromConstant(needle), ignoreCase: true);
        Assert.Equal(expected, Evaluate("""{ "s": "Hello" }""", filter));
        Assert.False(Evaluate("""{ "s": 5 }""", filter));
    }

    [Fact]
    public void Ignore_case_matches_decode_strings_longer_than_the_stack_buffer()
    {
        var text = new string('a', 600) + "Z";
        var filter = new StringMatchFilter(FieldPath.Parse("s"), StringMatchKind.EndsWith, FilterOperand.FromConstant("az"), ignoreCase: true);
        Assert.True(Evaluate($$"""{ "s": "{{text}}" }""", filter));
    }

    [Fact]
    public void Json_ignore_case_operators_parse_and_never_narrow_an_index()
    {
        var filter = Assert.IsType<StringMatchFilter>(JsonFilterParser.Parse("""{ "s": { "$containsIgnoreCase": "ELL" } }"""));
        Assert.True(filter.IgnoreCase);
        Assert.True(Evaluate("""{ "s": "Hello" }""", filter));
        var startsWith = JsonFilterParser.Parse("""{ "s": { "$startsWithIgnoreCase": "he" } }""");
        var plan = QueryPlanner.Plan(new DocumentQuery(startsWith), [IndexDescriptor.PrimaryKey, new IndexDescriptor("s_1", [FieldPath.Parse("s")], false, false, false)]);
        Assert.StartsWith("COLLSCAN", plan.Explain());
    }
}
