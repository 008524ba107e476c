using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>
/// Random documents and queries run through the real executor on a collection without secondary
/// indexes and on one with single, composite, unique and multikey indexes; both must return
/// exactly what evaluating the filter on every document returns, sorted by an independent
/// reference sort.
/// </summary>
public class ExecutorDifferentialTests
{
    private static readonly IndexDefinition[] Indexes =
    [
        new("idx_a", "a"),
        new("idx_b", "b"),
        new("idx_b_a", ["b", "a"]),
        new("idx_cx", "c.x"),
        new("idx_d", "d"),
        new("idx_ex", "e.x"),
        new("idx_g", "g"),
        new("idx_u", "u", unique: true),
    ];

    private static readonly FieldPath[] SortPaths = ["a", "b", "c.x", "_id", "d", "g", "u"];

    [Theory]
    [InlineData(11)]
    [InlineData(2024)]
    [InlineData(77)]
    public void Indexed_and_unindexed_execution_match_the_reference(int seed)
    {
        var random = new RandomDocuments(seed);
        var extra = new Random(seed);
        var documents = random.Documents(150);
        foreach (var document in documents)
        {
            document.Add("u", document["_id"].AsInt32 * 3 % 151);
            if (extra.Next(5) > 0)
            {
                document.Add("g", MixedValues.Next(extra));
            }
        }

        using var database = DocumentDatabase.OpenInMemory();
        var plain = database.GetCollection("plain");
        var indexed = database.GetCollection("indexed");
        foreach (var definition in Indexes)
        {
            indexed.EnsureIndex(definition);
        }

        plain.InsertMany(documents.Select(d => BsonDocument.Parse(d.ToJson())).ToList());
        indexed.InsertMany(documents.Select(d => BsonDocument.Parse(d.ToJson())).ToList());
        var stored = plain.FindAll().ToList();

        using var read = database.BeginRead();
        var usedIndexes = new HashSet<string>();
        var covered = 0;
        for (var round = 0; round < 250; round++)
        {
            var filter = random.Next(4) == 0 ? MixedValues.Filter(extra) : random.Filter();
            var sort = Enumerable.Range(0, random.Next(3))
                .Select(_ => new SortKey(SortPaths[random.Next(SortPaths.Length)], random.Next(2) == 0)).ToList();
            long skip = random.Next(3) == 0 ? random.Next(6) : 0;
            long? take = random.Next(2) == 0 ? random.Next(12) : null;
            var context = $"seed {seed}, round {round}: {new DocumentQuery(filter, sort)} skip {skip} take {take}";

            // Filter semantics are the evaluator's (tested on its own); the executor must agree with it
            // applied to every document, in _id order.
            var evaluator = FilterEvaluator.Create(filter, database.Fields);
            var matching = stored.Where(d => evaluator.Matches(d.ToBytes(database.Fields))).ToList();
            var expected = Ids(InMemoryIndexedCollection.SortReference(matching, sort));
            foreach (var collection in new[] { plain, indexed })
            {
                var explain = collection.Explain(read, filter, sort, skip, take);
                usedIndexes.Add(explain.Split(' ')[1]);
                var actual = Ids(collection.Find(read, filter, sort, skip, take).ToList());
                var count = collection.Count(read, filter);
                Assert.True(matching.Count == count, $"count {count} != {matching.Count}; {context}\n{explain}");
                AssertPage(expected, actual, sort.Count > 0, skip, take, context + "\n" + explain);
            }

            // Typed callers know which paths hold one value: two-sided ranges and index order then apply in full.
            var query = new DocumentQuery(filter, sort, skip == 0 ? null : FilterOperand.FromConstant(skip), take is { } t ? FilterOperand.FromConstant(t) : null);
            var plan = PlanExecutor.Plan(indexed.Documents, read, query, SingleValuedDescriptors);
            usedIndexes.Add("typed " + (plan.Index?.Name ?? "scan"));
            var typed = PlanExecutor.Execute(indexed.Documents, read, query, plan: plan)
                .Select(bytes => BsonDocument.FromBytes(bytes.Span, database.Fields)["_id"].AsInt32).ToList();
            AssertPage(expected, typed, sort.Count > 0, skip, take, context + "\n" + plan.Explain());

            // A covered _id projection returns exactly what the document plan returns, in its order (multikey de-duplication and paging included).
            foreach (var candidate in new[] { plan, PlanExecutor.Plan(indexed.Documents, read, query) })
            {
                if (PlanExecutor.TryExecuteIds(indexed.Documents, read, query, null, candidate) is not { } ids)
                {
                    continue;
                }

                covered++;
                var fromDocuments = PlanExecutor.Execute(indexed.Documents, read, query, plan: candidate).Select(bytes => IdOf(bytes, database)).ToList();
                var fromIndex = ids.Select(bytes => IdOf(bytes, database)).ToList();
                Assert.True(fromDocuments.SequenceEqual(fromIndex), $"covered [{string.Join(",", fromIndex)}] != [{string.Join(",", fromDocuments)}]; {context}\n{candidate.Explain()}");
            }
        }

        Assert.True(covered >= 1, $"only {covered} executions were covered");

        Assert.True(usedIndexes.Count >= 6, "indexes used: " + string.Join(", ", usedIndexes));
    }

    private static int IdOf(ReadOnlyMemory<byte> document, DocumentDatabase database) => BsonDocument.FromBytes(document.Span, database.Fields)["_id"].AsInt32;

    private static readonly IndexDescriptor[] SingleValuedDescriptors =
    [
        IndexDescriptor.PrimaryKey,
        new("idx_a", ["a"]),
        new("idx_b", ["b"]),
        new("idx_b_a", ["b", "a"]),
        new("idx_cx", ["c.x"]),
        new("idx_d", ["d"], multiKey: true),
        new("idx_ex", ["e.x"], multiKey: true),
        new("idx_g", ["g"], multiKey: true),
        new("idx_u", ["u"], unique: true),
    ];

    private static void AssertPage(List<int> expected, List<int> actual, bool sorted, long skip, long? take, string context)
    {
        if (sorted)
        {
            var page = expected.Skip((int)skip).Take((int)(take ?? int.MaxValue)).ToList();
            Assert.True(page.SequenceEqual(actual), $"expected [{string.Join(",", page)}] got [{string.Join(",", actual)}]; {context}");
            return;
        }

        Assert.Equal(actual.Count, actual.Distinct().Count());
        Assert.True(actual.All(expected.Contains), $"unexpected document; {context}");
        Assert.True(Math.Min(Math.Max(0, expected.Count - skip), take ?? long.MaxValue) == actual.Count, $"wrong size {actual.Count}; {context}");
    }

    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();
}
