using System.Linq.Expressions;
using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>Randomly built LINQ queries must return exactly what LINQ to Objects returns on the same list.</summary>
public class RandomLinqTests
{
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered", "lost"];
    private static readonly string[] Words = ["an", "a", "b", "bo", "eve", "x", "ann"];

    [Fact]
    public void Random_queries_match_linq_to_objects()
    {
        const int seed = 99;
        var fixture = new LinqFixture(seed, 150);
        var random = new Random(seed);
        for (var round = 0; round < 150; round++)
        {
            var predicate = RandomPredicate(random, 0);
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

    private static Expression<Func<Order, bool>> RandomPredicate(Random random, int depth)
    {
        var choice = random.Next(depth >= 2 ? 30 : 33);
        switch (choice)
        {
            case 30:
                return Combine(RandomPredicate(random, depth + 1), RandomPredicate(random, depth + 1), Expression.AndAlso);
            case 31:
                return Combine(RandomPredicate(random, depth + 1), RandomPredicate(random, depth + 1), Expression.OrElse);
            case 32:
                var inner = RandomPredicate(random, depth + 1);
                return Expression.Lambda<Func<Order, bool>>(Expression.Not(inner.Body), inner.Parameters);
        }

        var quantity = random.Next(-1, 13);
        var total = (decimal)random.Next(0, 500);
        var score = random.NextDouble() * 10;
        var status = Statuses[random.Next(Statuses.Length)];
        var word = Words[random.Next(Words.Length)];
        var discount = random.Next(0, 30);
        var kind = (OrderKind)random.Next(3);
        var when = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(random.Next(0, 2000));
        var statuses = Statuses.Where(_ => random.Next(2) == 0).ToList();
        var ids = Enumerable.Range(0, random.Next(6)).Select(_ => random.Next(1, 160)).ToArray();
        return choice switch
        {
            0 => o => o.Quantity > quantity,
            1 => o => o.Quantity <= quantity,
            2 => o => o.Quantity == quantity,
            3 => o => o.Total >= total,
            4 => o => o.Score < score,
            5 => o => o.Status == status,
            6 => o => o.Status != status,
            7 => o => o.Kind == kind,
            8 => o => o.Discount == null,
            9 => o => o.Discount > discount,
            10 => o => o.Customer.Name.StartsWith(word),
            11 => o => o.Customer.Name.Contains(word),
            12 => o => statuses.Contains(o.Status),
            13 => o => ids.Contains(o.Id),
            14 => o => o.Tags.Contains(word),
            15 => o => o.Lines.Any(l => l.Qty > quantity % 6),
            16 => o => o.Paid,
            17 => o => o.PlacedAt < when,
            18 => o => o.Note != word,
            19 => o => o.Lines.Any(l => l.Sku.StartsWith(word) && l.Price > total / 10),
            20 => o => o.Customer.Name.Length > quantity % 5,
            21 => o => o.Lines.Count >= quantity % 4,
            22 => o => o.Quantity * o.Total > total,
            23 => o => o.Quantity > o.Discount,
            24 => o => string.Compare(o.Customer.Name, word) > 0,
            25 => o => o.Status.Equals(status.ToUpperInvariant(), StringComparison.OrdinalIgnoreCase),
            26 => o => o.PlacedAt.Day < quantity + 5,
            27 => o => o.Customer.Name.ToUpperInvariant() == word.ToUpperInvariant(),
            28 => o => o.Location == null,
            _ => o => o.Quantity % 3 == quantity % 3 && o.Lines.Any(l => l.Qty * l.Price > total / 20),
        };
    }

    private static Expression<Func<Order, bool>> Combine(Expression<Func<Order, bool>> left, Expression<Func<Order, bool>> right,
        Func<Expression, Expression, BinaryExpression> combine)
    {
        var parameter = left.Parameters[0];
        var rightBody = new Rebind(right.Parameters[0], parameter).Visit(right.Body);
        return Expression.Lambda<Func<Order, bool>>(combine(left.Body, rightBody), parameter);
    }

    private sealed class Rebind(ParameterExpression from, ParameterExpression to) : ExpressionVisitor
    {
        protected override Expression VisitParameter(ParameterExpression node) => node == from ? to : node;
    }
}
