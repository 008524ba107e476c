using BLite.PostgreSql.Tests.Infrastructure;
using BLite.Tests.Linq;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>
/// A query shape BLite cannot run in the engine fails the same way on both providers: the same
/// <see cref="NotSupportedException"/> naming the construct, never a client-side evaluation.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class UnsupportedQueryTests(PostgresCluster cluster)
{
    public static TheoryData<string, string> Cases => new()
    {
        { "unknown computed member", "o.PlacedAt.Ticks" },
        { "method on field", "o.Customer.Name.Trim()" },
        { "culture comparison", "StartsWith" },
        { "computed ordering key", "o.Status.Length" },
        { "order by expression", "(o.Quantity * @p0)" },
        { "where after take", "Where after Skip/Take" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Both_providers_refuse_the_same_construct_with_the_same_message(string caseName, string construct)
    {
        var messages = new List<string>();
        foreach (var provider in new[] { Provider.Embedded, Provider.PostgreSql })
        {
            using var linq = new ProviderLinq(cluster, provider, count: 10);
            var error = Assert.Throws<NotSupportedException>(() => Run(linq.Query, caseName));
            Assert.Contains(construct, error.Message, StringComparison.Ordinal);
            messages.Add(error.Message);
        }

        Assert.Equal(messages[0], messages[1]);
    }

    private static object Run(IQueryable<Order> orders, string caseName) => caseName switch
    {
        "unknown computed member" => orders.Where(o => o.PlacedAt.Ticks > 5).ToList(),
        "method on field" => orders.Where(o => o.Customer.Name.Trim() == "ann").ToList(),
        "culture comparison" => orders.Where(o => o.Status.StartsWith("p", StringComparison.CurrentCultureIgnoreCase)).ToList(),
        "computed ordering key" => orders.OrderBy(o => o.Status.Length).ToList(),
        "order by expression" => orders.OrderBy(o => o.Quantity * 2).ToList(),
        _ => orders.Take(3).Where(o => o.Paid).ToList(),
    };
}
