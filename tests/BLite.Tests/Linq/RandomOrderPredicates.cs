using System.Linq.Expressions;

namespace BLite.Tests.Linq;

/// <summary>
/// Random <see cref="Order"/> predicates over every translated shape (comparisons, nulls, strings,
/// In, array matches, computed conditions, and/or/not), shared by the differential tests of the
/// LINQ layer and of each provider (tests/BLite.PostgreSql.Tests links this file).
/// </summary>
internal static class RandomOrderPredicates
{
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered", "lost"];
    private static readonly string[] Words = ["an", "a", "b", "bo", "eve", "x", "ann"];

    public static Expression<Func<Order, bool>> Next(Random random) => RandomPredicate(random, 0);

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
