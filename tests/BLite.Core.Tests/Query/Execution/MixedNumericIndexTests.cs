using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Tests.BTrees;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>
/// Random int, long, ulong, double, decimal and Decimal128 values in one indexed field: an index
/// scan returns them in exact numeric order, and random cross-type ranges answered through the
/// index find exactly the documents exact math says match.
/// </summary>
public sealed class MixedNumericIndexTests
{
    private const int Seed = 9021;

    [Fact]
    public void Random_mixed_numbers_come_back_from_the_index_in_exact_order_and_ranges_through_it_are_exact()
    {
        var random = new Random(Seed);
        var values = NumericKeyOrderTests.MixedNumbers(random, 40);
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_n", "n");
        items.InsertMany(values.Select((v, i) => new BsonDocument { { "_id", i }, { "n", v } }).ToList());

        // A sorted read with a limit walks the index in key order and stops early: a key out of
        // exact numeric order would drop or misplace documents.
        var expectedOrder = values.OrderBy(v => v, Comparer<BsonValue>.Create(NumericKeyOrderTests.CompareExactly)).ToList();
        foreach (var take in new[] { 1, 7, 40, values.Count })
        {
            Assert.Contains("IXSCAN by_n", items.Explain(null, [new SortKey("n")], take: take));
            var sorted = items.Find((QueryFilter?)null, [new SortKey("n")], take: take).Select(d => d["n"]).ToList();
            Assert.Equal(take, sorted.Count);
            for (var i = 0; i < take; i++)
            {
                Assert.True(NumericKeyOrderTests.CompareExactly(sorted[i], expectedOrder[i]) == 0, $"seed {Seed}, take {take}: item {i} is {sorted[i]}, expected {expectedOrder[i]}");
            }
        }

        var nonEmpty = 0;
        for (var round = 0; round < 60; round++)
        {
            var low = values[random.Next(values.Count)];
            var high = values[random.Next(values.Count)];
            var lowInclusive = random.Next(2) == 0;
            var highInclusive = random.Next(2) == 0;
            var filter = QueryFilter.And(
                lowInclusive ? QueryFilter.Gte("n", low) : QueryFilter.Gt("n", low),
                highInclusive ? QueryFilter.Lte("n", high) : QueryFilter.Lt("n", high));
            var expected = values.Select((v, i) => (v, i)).Where(e =>
                NumericKeyOrderTests.CompareExactly(e.v, low) is var l && (l > 0 || (l == 0 && lowInclusive))
                && NumericKeyOrderTests.CompareExactly(e.v, high) is var h && (h < 0 || (h == 0 && highInclusive))).Select(e => e.i).ToArray();

            var plan = items.Explain(filter);
            var actual = items.Find(filter).Select(d => d["_id"].AsInt32).Order().ToArray();

            Assert.True(plan.StartsWith("IXSCAN by_n", StringComparison.Ordinal), $"seed {Seed}, round {round}: {plan}");
            Assert.True(expected.SequenceEqual(actual), $"seed {Seed}, round {round}: [{low}, {high}] expected {expected.Length} found {actual.Length}");
            nonEmpty += actual.Length > 0 ? 1 : 0;
        }

        Assert.True(nonEmpty > 20, $"only {nonEmpty} ranges matched anything");
    }
}
