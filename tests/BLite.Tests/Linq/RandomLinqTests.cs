using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>Randomly built LINQ queries must return exactly what LINQ to Objects returns on the same list.</summary>
public class RandomLinqTests
{
    [Fact]
    public void Random_queries_match_linq_to_objects()
    {
        const int seed = 99;
        var fixture = new LinqFixture(seed, 150);
        var random = new Random(seed);
        for (var round = 0; round < 150; round++)
        {
            var predicate = RandomOrderPredicates.Next(random);
            var ordering = random.Next(5);
            var skip = random.Next(4) == 0 ? random.Next(10) : -1;
            var take = random.Next(3) == 0 ? random.Next(20) : -1;

            IQueryable<Order> Build(IQueryable<Order> q)
            {
                q = q.Where(predicate);
                q = ordering switch
                {
                    1 => q.OrderBy(o => o.Quantity).ThenBy(o => o.Id),
                    2 => q.OrderByDescending(o => o.Total).ThenByDescending(o => o.Id),
                    3 => q.OrderBy(o => o.Customer.Name).ThenByDescending(o => o.PlacedAt).ThenBy(o => o.Id),
                    4 => q.OrderBy(o => o.Discount).ThenBy(o => o.Id),
                    _ => q,
                };
                if (skip >= 0)
                {
                    q = q.Skip(skip);
                }

                return take >= 0 ? q.Take(take) : q;
            }

            // The same operators on LINQ to Objects, with the predicate compiled once.
            var test = predicate.Compile();
            var filtered = fixture.Orders.Where(test);
            filtered = ordering switch
            {
                1 => filtered.OrderBy(o => o.Quantity).ThenBy(o => o.Id),
                2 => filtered.OrderByDescending(o => o.Total).ThenByDescending(o => o.Id),
                3 => filtered.OrderBy(o => o.Customer.Name, StringComparer.Ordinal).ThenByDescending(o => o.PlacedAt).ThenBy(o => o.Id),
                4 => filtered.OrderBy(o => o.Discount).ThenBy(o => o.Id),
                _ => filtered,
            };
            filtered = skip >= 0 ? filtered.Skip(skip) : filtered;
            filtered = take >= 0 ? filtered.Take(take) : filtered;

            var expected = filtered.Select(o => o.Id).ToList();
            var actual = Build(fixture.Query).Select(o => o.Id).ToList();
            Assert.True(expected.SequenceEqual(actual), $"seed {seed}, round {round}: {predicate}\nexpected [{string.Join(",", expected)}]\nactual   [{string.Join(",", actual)}]");

            var expectedCount = fixture.Orders.Count(test);
            Assert.True(expectedCount == fixture.Query.Count(predicate), $"seed {seed}, round {round}: Count({predicate})");
        }
    }
}
