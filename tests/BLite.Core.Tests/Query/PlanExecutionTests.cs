using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

public class PlanExecutionTests
{
    private static readonly IndexDescriptor[] Indexes =
    [
        IndexDescriptor.PrimaryKey,
        new("idx_a", ["a"]),
        new("idx_b", ["b"]),
        new("idx_b_a", ["b", "a"]),
        new("idx_cx", ["c.x"]),
        new("idx_d", ["d"], multiKey: true),
        new("idx_ex", ["e.x"], multiKey: true),
    ];

    private static readonly FieldPath[] SortPaths = ["a", "b", "c.x", "_id"];

    [Fact]
    public void Every_plan_returns_what_a_full_scan_returns()
    {
        const int seed = 4242;
        var random = new RandomDocuments(seed);
        var documents = random.Documents(80);
        var collection = new InMemoryIndexedCollection(documents, Indexes);
        var usedIndexes = new HashSet<string>();
        for (var round = 0; round < 400; round++)
        {
            var parameters = new List<BsonValue>();
            var filter = random.Filter();
            if (random.Next(2) == 0)
            {
                filter = Parameterize(filter, parameters);
            }

            var sort = Enumerable.Range(0, random.Next(3))
                .Select(_ => new SortKey(SortPaths[random.Next(SortPaths.Length)], random.Next(2) == 0)).ToList();
            FilterOperand? take = null;
            FilterOperand? skip = null;
            if (sort.Count > 0 && random.Next(2) == 0)
            {
                take = FilterOperand.FromConstant(random.Next(15));
                skip = random.Next(2) == 0 ? FilterOperand.FromConstant(random.Next(5)) : null;
            }

            var query = new DocumentQuery(filter, sort, skip, take);
            var plan = QueryPlanner.Plan(query, Indexes);
            usedIndexes.Add(plan.Index?.Name ?? "scan");

            var expectedAll = documents.Where(d => ReferenceEvaluator.Matches(filter, d, parameters)).ToList();
            var expected = InMemoryIndexedCollection.SortReference(expectedAll, sort)
                .Skip(skip is null ? 0 : skip.Value.Constant.AsInt32).Take(take is null ? int.MaxValue : take.Value.Constant.AsInt32).ToList();
            var actual = collection.Execute(plan, parameters);

            var context = $"seed {seed}, round {round}: {query}\n{plan.Explain()}";
            Assert.True(SameSortKeys(expected, actual, sort), "order differs; " + context);
            if (take is null)
            {
                Assert.True(Ids(expected).SetEquals(Ids(actual)), "documents differ; " + context);
                Assert.True(expected.Count == actual.Count, "duplicates; " + context);
            }
        }

        Assert.True(usedIndexes.Count >= 5, "too few access paths exercised: " + string.Join(", ", usedIndexes));
    }

    private static HashSet<int> Ids(List<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToHashSet();

    /// <summary>Equal by value position by position (5 and 5.0 tie, so either may come first).</summary>
    private static bool SameSortKeys(List<BsonDocument> expected, List<BsonDocument> actual, List<SortKey> sort) =>
        expected.Count == actual.Count && expected.Zip(actual).All(pair => sort.All(k =>
            InMemoryIndexedCollection.SortValue(pair.First, k).CompareTo(InMemoryIndexedCollection.SortValue(pair.Second, k)) == 0));

    /// <summary>Moves every constant into a parameter slot, as the LINQ layer does.</summary>
    private static QueryFilter Parameterize(QueryFilter filter, List<BsonValue> parameters)
    {
        FilterOperand Slot(FilterOperand operand)
        {
            parameters.Add(operand.Constant);
            return FilterOperand.FromParameter(parameters.Count - 1);
        }

        return filter switch
        {
            ComparisonFilter c => new ComparisonFilter(c.Path, c.Operator, Slot(c.Value)),
            InFilter i => new InFilter(i.Path, Slot(i.Values), i.Negated),
            StringMatchFilter s => new StringMatchFilter(s.Path, s.Kind, Slot(s.Value), s.IgnoreCase),
            AndFilter a => QueryFilter.And(a.Filters.Select(f => Parameterize(f, parameters)).ToList()),
            OrFilter o => QueryFilter.Or(o.Filters.Select(f => Parameterize(f, parameters)).ToList()),
            NotFilter n => QueryFilter.Not(Parameterize(n.Filter, parameters)),
            _ => filter,
        };
    }
}
