using BLite.Extensions.DependencyInjection;
using BLite.Bson;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using Microsoft.Extensions.DependencyInjection;

namespace BLite.PostgreSql.Tests.Storage;

[Collection(PostgresCollection.Name)]
public sealed class RegistrationTests(PostgresCluster cluster)
{
    [Fact]
    public void AddBLite_opens_the_context_on_PostgreSQL_and_other_instances_share_its_data()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        var services = new ServiceCollection();
        services.AddBLite<ProviderContext>(builder => builder.Options.UsePostgreSql(database.ConnectionString));
        ObjectId id;
        using (var container = services.BuildServiceProvider())
        {
            id = container.GetRequiredService<ProviderContext>().Orders.Insert(CrudTests.NewOrder("A-1", "a@x"));
        }

        // A second "instance" of the application, as in a web farm: its own context, the same rows.
        using var other = new ProviderContext(database.Options());
        Assert.Equal("A-1", other.Orders.FindById(id)!.Number);
        Assert.Throws<NotSupportedException>(() => other.Database.Checkpoint());
    }
}
