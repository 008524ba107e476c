using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

public class ExecutorBehaviourTests
{
    [Fact]
    public void Equality_on_an_indexed_number_finds_every_number_class()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        BsonValue[] values = [5, 5L, 5.0, 5m, 5.00m, 5.5, 5.5m, 6, "5"];
        items.InsertMany(values.Select((v, i) => new BsonDocument { { "_id", i }, { "n", v } }).ToList());

        Assert.Equal([0, 1, 2, 3, 4], Ids(items.Find("""{ "n": 5 }""")).Order());
        Assert.Equal([5, 6, 7], Ids(items.Find("""{ "n": { "$gt": 5 } }""")).Order());
        Assert.Equal([5, 6], Ids(items.Find("""{ "n": { "$in": [5.5, 7] } }""")).Order());
        Assert.Equal([0, 1, 2, 3, 4, 5, 6], Ids(items.Find("""{ "n": { "$gte": 4.5, "$lt": { "$numberDecimal": "6" } } }""")).Order());
        Assert.StartsWith("IXSCAN by_n", items.Explain(QueryFilter.Eq("n", 5)));
    }

    [Fact]
    public void A_multikey_range_with_order_and_take_still_finds_documents_sorted_by_an_element_outside_the_range()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_d", "d");
        items.Insert(new BsonDocument { { "_id", 1 }, { "d", new BsonArray { 1, 8 } } });
        items.Insert(new BsonDocument { { "_id", 2 }, { "d", new BsonArray { 6 } } });
        items.Insert(new BsonDocument { { "_id", 3 }, { "d", new BsonArray { 7 } } });

        var found = items.Find(QueryFilter.Gt("d", 5), [new SortKey("d")], take: 1);

        Assert.Equal([1], Ids(found));
    }

    [Fact]
    public void Index_order_with_take_sorts_strings_beyond_the_bmp_and_local_times_as_a_full_sort_would()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_s", "s");
        items.EnsureIndex("by_t", "t");
        string[] strings = ["\uE000", "\uD83D\uDE00", "a", "\uFFFF", "\uD83D\uDE01", "b"];
        var at = new DateTime(2024, 5, 1, 12, 0, 0, DateTimeKind.Utc);
        DateTime[] times = [at.AddHours(2), at.ToLocalTime().AddHours(1), DateTime.SpecifyKind(at, DateTimeKind.Unspecified), at.AddHours(-3).ToLocalTime(), at.AddHours(5)];
        for (var i = 0; i < 6; i++)
        {
            items.Insert(new BsonDocument { { "_id", i }, { "s", strings[i] }, { "t", times[i % times.Length] } });
        }

        var all = items.FindAll().ToList();
        foreach (var (path, descending) in new[] { ("s", false), ("s", true), ("t", false), ("t", true) })
        {
            var sort = new[] { new SortKey(path, descending) };
            var expected = Ids(InMemoryIndexedCollection.SortReference(all, sort)).Take(3);
            Assert.Contains("IXSCAN by_" + path, items.Explain(null, sort, take: 3));
            Assert.Equal(expected, Ids(items.Find((QueryFilter?)null, sort, take: 3)));
        }
    }

    [Theory]
    [InlineData("""{ "_id": 4 }""", "", "PKSCAN _id")]
    [InlineData("""{ "status": "shipped" }""", "", "IXSCAN by_status")]
    [InlineData("""{ "status": { "$in": ["a", "b"] } }""", "", "IXSCAN by_status")]
    [InlineData("""{ "name": { "$startsWith": "Jo" } }""", "", "IXSCAN by_name")]
    [InlineData("""{ "status": "x", "total": { "$gt": 3 } }""", "", "IXSCAN by_status_total")]
    [InlineData("""{ "email": "a@b" }""", "", "IXSCAN by_email")]
    [InlineData("""{ "tags": "red" }""", "", "IXSCAN by_tags")]
    [InlineData("""{ "total": { "$gt": 3 } }""", "", "IXSCAN by_total")]
    [InlineData("""{}""", "total", "IXSCAN by_total")]
    [InlineData("""{ "note": "x" }""", "", "COLLSCAN")]
    [InlineData("""{ "status": { "$ne": "x" } }""", "", "COLLSCAN")]
    public void Explain_names_the_index_the_planner_picks(string filter, string sort, string expectedStart)
    {
        using var database = DocumentDatabase.OpenInMemory();
        var orders = database.GetCollection("orders");
        orders.EnsureIndex("by_status", "status");
        orders.EnsureIndex("by_name", "name");
        orders.EnsureIndex(new IndexDefinition("by_status_total", ["status", "total"]));
        orders.EnsureIndex("by_email", "email", unique: true);
        orders.EnsureIndex("by_tags", "tags");
        orders.EnsureIndex("by_total", "total");
        orders.Insert(new BsonDocument { { "_id", 1 }, { "status", "x" }, { "total", 4 }, { "email", "a@b" }, { "tags", new BsonArray { "red" } } });

        var sortKeys = sort.Length == 0 ? null : new[] { new SortKey(sort) };
        var explain = orders.Explain(JsonFilterParser.Parse(filter), sortKeys, take: sortKeys is null ? null : 5);

        Assert.StartsWith(expectedStart, explain);
    }

    [Fact]
    public void Find_in_a_write_transaction_sees_its_own_writes()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_k", "k");
        items.Insert(new BsonDocument { { "_id", 1 }, { "k", "a" } });

        using var write = database.BeginWrite();
        items.Insert(write, new BsonDocument { { "_id", 2 }, { "k", "a" } });

        Assert.Equal([1, 2], Ids(items.Find(write, """{ "k": "a" }""")));
        Assert.Equal(2, items.Count(write, """{ "k": "a" }"""));
        Assert.Equal(1, items.Count("""{ "k": "a" }"""));
    }

    [Fact]
    public void DeleteMany_removes_exactly_the_matching_documents_and_their_index_entries()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_k", "k");
        items.InsertMany(Enumerable.Range(0, 20).Select(i => new BsonDocument { { "_id", i }, { "k", i % 3 } }).ToList());

        var deleted = items.DeleteMany("""{ "k": 1 }""");

        Assert.Equal(7, deleted);
        Assert.Equal(0, items.Count("""{ "k": 1 }"""));
        Assert.Equal(Enumerable.Range(0, 20).Where(i => i % 3 != 1), Ids(items.Find("{}", [new SortKey("_id")])));
        Assert.True(database.Verify().IsValid);
    }

    [Fact]
    public void Count_and_any_honour_skip_and_take_without_materializing()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.InsertMany(Enumerable.Range(0, 10).Select(i => new BsonDocument { { "_id", i }, { "k", i } }).ToList());
        using var read = database.BeginRead();
        var query = new DocumentQuery(QueryFilter.Gte("k", 4), [], FilterOperand.FromConstant(2), FilterOperand.FromConstant(3));

        Assert.Equal(3, PlanExecutor.Count(items.Documents, read, query));
        Assert.True(PlanExecutor.Any(items.Documents, read, query));
        Assert.False(PlanExecutor.Any(items.Documents, read, new DocumentQuery(QueryFilter.Gte("k", 4), [], FilterOperand.FromConstant(6))));
    }

    [Fact]
    public void A_plan_made_once_serves_every_parameter_value_including_ones_that_disable_the_index()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_k", "k");
        BsonValue[] values = [1, 2.0, 2m, "2", BsonValue.Null, 3L];
        items.InsertMany(values.Select((v, i) => new BsonDocument { { "_id", i }, { "k", v } }).ToList());
        items.Insert(new BsonDocument { { "_id", 99 } });
        using var read = database.BeginRead();
        var query = new DocumentQuery(new ComparisonFilter("k", ComparisonOperator.Gte, FilterOperand.FromParameter(0)), [new SortKey("_id")]);
        var plan = PlanExecutor.Plan(items.Documents, read, query);
        Assert.StartsWith("IXSCAN by_k", plan.Explain());

        foreach (var parameter in new BsonValue[] { 2, 2.5, "1", BsonValue.Null, 0m })
        {
            var evaluator = FilterEvaluator.Create(query.Filter, database.Fields, [parameter]);
            var expected = items.FindAll().Where(d => evaluator.Matches(d.ToBytes(database.Fields))).Select(d => d["_id"].AsInt32);
            var actual = PlanExecutor.Execute(items.Documents, read, query, [parameter], plan)
                .Select(bytes => BsonDocument.FromBytes(bytes.Span, database.Fields)["_id"].AsInt32);
            Assert.Equal(expected, actual);
        }
    }

    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();
}
