using BLite.Core.Query;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using BLite.PostgreSql.Tests.Storage;

namespace BLite.PostgreSql.Tests.Linq;

/// <summary>JSON filters parse into the same filter model LINQ produces, and run the same on both providers.</summary>
[Collection(PostgresCollection.Name)]
public sealed class JsonFilterTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Json_filters_select_the_same_documents_on_both_providers(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var orders = new List<Order>();
        for (var i = 0; i < 12; i++)
        {
            var order = CrudTests.NewOrder("N-" + i, i + "@x");
            order.Status = i % 3 == 0 ? "shipped" : "pending";
            order.Total = i;
            order.Note = i % 2 == 0 ? null : "n";
            order.Tags = i % 4 == 0 ? ["red", "blue"] : ["blue"];
            orders.Add(order);
        }

        context.Orders.InsertMany(orders);

        Assert.Equal(["N-3", "N-6", "N-9"], Numbers(context, """{ "Status": "shipped", "Total": { "$gte": 3 } }"""));
        Assert.Equal(["N-0", "N-4", "N-8"], Numbers(context, """{ "Tags": "red" }"""));
        Assert.Equal(["N-1", "N-3"], Numbers(context, """{ "Note": { "$ne": null }, "Total": { "$lt": 5 } }"""));
        Assert.Equal(["N-10", "N-11"], Numbers(context, """{ "$or": [ { "Number": { "$in": ["N-10", "N-11"] } }, { "Missing": { "$exists": true } } ] }"""));
        Assert.Equal(12, Numbers(context, """{ "Missing": null }""").Count);
        Assert.Equal(["N-5"], Numbers(context, """{ "Lines": { "$elemMatch": { "Sku": "sku-N-5", "Quantity": { "$gt": 1 } } } }"""));
    }

    private static List<string> Numbers(ProviderContext context, string json) =>
        context.Orders.DocumentSource.Execute(new DocumentQuery(JsonFilterParser.Parse(json), [new SortKey("Total")]), []).Select(o => o.Number).ToList();
}
