using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

public class FilterEvaluatorTests
{
    private static bool Evaluate(string json, QueryFilter filter, IReadOnlyList<BsonValue>? parameters = null)
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = BsonDocument.Parse(json).ToBytes(dictionary);
        return FilterEvaluator.Create(filter, dictionary, parameters).Matches(bytes);
    }

    [Theory]
    [InlineData("""{ "n": 5 }""", true)]
    [InlineData("""{ "n": { "$numberLong": "5" } }""", true)]
    [InlineData("""{ "n": 5.0 }""", true)]
    [InlineData("""{ "n": { "$numberDecimal": "5.00" } }""", true)]
    [InlineData("""{ "n": 5.5 }""", false)]
    [InlineData("""{ "n": "5" }""", false)]
    public void Numbers_of_every_width_compare_by_value(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, QueryFilter.Eq("n", 5)));

    [Theory]
    [InlineData("""{ "n": null }""", true)]
    [InlineData("""{ "m": 1 }""", true)]
    [InlineData("""{ "n": 0 }""", false)]
    [InlineData("""{ "n": [1, null] }""", true)]
    public void Eq_null_matches_null_and_missing(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, QueryFilter.Eq("n", BsonValue.Null)));

    [Theory]
    [InlineData("""{ "n": null }""", false)]
    [InlineData("""{ "m": 1 }""", false)]
    [InlineData("""{ "n": 1 }""", true)]
    public void Ne_null_matches_only_present_non_null_values(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, QueryFilter.Ne("n", BsonValue.Null)));

    [Fact]
    public void Range_comparisons_never_cross_types() =>
        Assert.False(Evaluate("""{ "n": "zzz" }""", QueryFilter.Gt("n", 5)));

    [Fact]
    public void Strings_compare_ordinally()
    {
        Assert.True(Evaluate("""{ "s": "a" }""", QueryFilter.Gt("s", "B")));
        Assert.False(Evaluate("""{ "s": "B" }""", QueryFilter.Gt("s", "a")));
    }

    [Theory]
    [InlineData("""{ "tags": ["x", "y"] }""", true)]
    [InlineData("""{ "tags": ["z"] }""", false)]
    [InlineData("""{ "tags": "y" }""", true)]
    public void A_path_ending_at_an_array_matches_when_any_element_does(string json, bool expected) =>
        Assert.Equal(expected, Evaluate(json, QueryFilter.Eq("tags", "y")));

    [Fact]
    public void A_path_through_an_array_of_documents_visits_every_element()
    {
        const string json = """{ "lines": [ { "sku": "A", "qty": 1 }, { "sku": "B", "qty": 7 } ] }""";
        Assert.True(Evaluate(json, QueryFilter.Eq("lines.sku", "B")));
        Assert.True(Evaluate(json, QueryFilter.Gt("lines.qty", 5)));
        Assert.False(Evaluate(json, QueryFilter.Eq("lines.sku", "C")));
    }

    [Fact]
    public void ElemMatch_requires_one_element_to_satisfy_every_condition()
    {
        const string json = """{ "lines": [ { "sku": "A", "qty": 1 }, { "sku": "B", "qty": 7 } ] }""";
        var sameElement = QueryFilter.ElemMatch("lines", QueryFilter.And(QueryFilter.Eq("sku", "A"), QueryFilter.Gt("qty", 5)));
        var separately = QueryFilter.And(QueryFilter.Eq("lines.sku", "A"), QueryFilter.Gt("lines.qty", 5));
        Assert.False(Evaluate(json, sameElement));
        Assert.True(Evaluate(json, separately));
    }

    [Fact]
    public void Whole_array_equality_is_supported()
    {
        Assert.True(Evaluate("""{ "d": [1, 2] }""", QueryFilter.Eq("d", new BsonArray { 1, 2L })));
        Assert.False(Evaluate("""{ "d": [1, 2] }""", QueryFilter.Eq("d", new BsonArray { 2, 1 })));
    }

    [Fact]
    public void Exists_counts_a_stored_null_as_present()
    {
        Assert.True(Evaluate("""{ "n": null }""", QueryFilter.Exists("n")));
        Assert.False(Evaluate("""{ "m": 1 }""", QueryFilter.Exists("n")));
        Assert.True(Evaluate("""{ "m": 1 }""", QueryFilter.Exists("n", false)));
    }

    [Fact]
    public void Parameters_are_bound_per_evaluator()
    {
        var filter = QueryFilter.Gte("n", FilterOperand.FromParameter(0));
        Assert.True(Evaluate("""{ "n": 5 }""", filter, [5]));
        Assert.False(Evaluate("""{ "n": 5 }""", filter, [6]));
    }

    [Fact]
    public void A_missing_parameter_is_reported()
    {
        var filter = QueryFilter.Eq("n", FilterOperand.FromParameter(2));
        var error = Assert.Throws<ArgumentException>(() => Evaluate("""{ "n": 5 }""", filter, [1]));
        Assert.Contains("@p2", error.Message);
    }

    [Fact]
    public void A_field_name_unknown_to_the_dictionary_is_missing_and_is_not_added()
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = BsonDocument.Parse("""{ "n": 1 }""").ToBytes(dictionary);
        var count = dictionary.Count;
        Assert.True(FilterEvaluator.Create(QueryFilter.Eq("never", BsonValue.Null), dictionary).Matches(bytes));
        Assert.False(FilterEvaluator.Create(QueryFilter.Eq("never", new BsonDocument { { "alsoNever", 1 } }), dictionary).Matches(bytes));
        Assert.Equal(count, dictionary.Count);
    }

    [Fact]
    public void Raw_evaluation_agrees_with_the_document_model_on_random_filters()
    {
        const int seed = 20261121;
        var random = new RandomDocuments(seed);
        var documents = random.Documents(150);
        var dictionary = new BsonFieldDictionary();
        var encoded = documents.Select(d => d.ToBytes(dictionary)).ToList();
        for (var round = 0; round < 400; round++)
        {
            var filter = random.Filter();
            var evaluator = FilterEvaluator.Create(filter, dictionary);
            for (var i = 0; i < documents.Count; i++)
            {
                var expected = ReferenceEvaluator.Matches(filter, documents[i]);
                var actual = evaluator.Matches(encoded[i]);
                Assert.True(expected == actual, $"seed {seed}, round {round}: filter {filter} on {documents[i]} expected {expected}");
            }
        }
    }
}
