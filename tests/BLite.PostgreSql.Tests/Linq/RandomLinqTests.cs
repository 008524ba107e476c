using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// The LINQ layer's randomized differential test on both providers: the same random predicates
/// (<see cref="RandomOrderPredicates"/>), orderings and pages, each compared with LINQ to Objects
/// over the same documents. A query PostgreSQL cannot translate would fail the test, not be skipped.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class RandomLinqTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    /// <summary>CI runs one seed; <c>BLITE_LINQ_SEEDS=N</c> runs N seeds on demand.</summary>
    [Theory]
    [MemberData(nameof(Providers))]
    public void Random_queries_match_linq_to_objects(Provider provider)
    {
        var seeds = int.TryParse(Environment.GetEnvironmentVariable("BLITE_LINQ_SEEDS"), out var count) && count > 0 ? count : 1;
        for (var seed = 99; seed < 99 + seeds; seed++)
        {
            RunSeed(provider, seed);
        }
    }

    private void RunSeed(Provider provider, int seed)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new LinqContext(database.Options());
        var orders = TestData.Orders(seed, 150);
        context.Orders.InsertMany(orders);
        var random = new Random(seed);
        var nonEmpty = 0;
        for (var round = 0; round < 150; round++)
        {
            var predicate = RandomOrderPredicates.Next(random);
            var ordering = random.Next(5);
            var skip = random.Next(4) == 0 ? random.Next(10) : -1;
            var take = random.Next(3) == 0 ? random.Next(20) : -1;

            // Without an ordering the order is the plan's (an index scan on the embedded engine), so
            // such rounds compare the sets and do not page.
            if (ordering == 0)
            {
                (skip, take) = (-1, -1);
            }

            IQueryable<Order> Build(IQueryable<Order> q, bool inMemory)
            {
                q = q.Where(predicate);
                q = ordering switch
                {
                    1 => q.OrderBy(o => o.Quantity).ThenBy(o => o.Id),
                    2 => q.OrderByDescending(o => o.Total).ThenByDescending(o => o.Id),
                    3 when inMemory => q.OrderBy(o => o.Customer.Name, StringComparer.Ordinal).ThenByDescending(o => o.PlacedAt).ThenBy(o => o.Id),
                    3 => q.OrderBy(o => o.Customer.Name).ThenByDescending(o => o.PlacedAt).ThenBy(o => o.Id),
                    4 => q.OrderBy(o => o.Discount).ThenBy(o => o.Id),
                    _ => q,
                };
                q = skip >= 0 ? q.Skip(skip) : q;
                return take >= 0 ? q.Take(take) : q;
            }

            var expected = Build(orders.AsQueryable(), inMemory: true).Select(o => o.Id).ToList();
            var actual = Build(context.Orders.Query(), inMemory: false).Select(o => o.Id).ToList();
            if (ordering == 0)
            {
                actual.Sort();
            }

            Assert.True(expected.SequenceEqual(actual), $"{provider}, seed {seed}, round {round}: {predicate}\nexpected [{string.Join(",", expected)}]\nactual   [{string.Join(",", actual)}]");
            Assert.True(orders.AsQueryable().Count(predicate) == context.Orders.Query().Count(predicate), $"{provider}, round {round}: Count({predicate})");
            nonEmpty += expected.Count > 0 ? 1 : 0;
        }

        // The rounds exercised real matches, not only empty results.
        Assert.True(nonEmpty > 75, $"seed {seed}: only {nonEmpty} of 150 rounds matched a document");
    }
}
