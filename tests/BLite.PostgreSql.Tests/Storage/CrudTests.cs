using BLite.Bson;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Storage;

/// <summary>The collection operations, one test class for both providers.</summary>
[Collection(PostgresCollection.Name)]
public sealed class CrudTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Insert_generates_ids_and_find_reads_the_document_back(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var order = NewOrder("A-1", "a@x");

        var id = context.Orders.Insert(order);
        var first = context.Counters.Insert(new Counter { Name = "one" });
        var second = context.Counters.Insert(new Counter { Name = "two" });

        Assert.NotEqual(ObjectId.Empty, id);
        Assert.Equal(id, order.Id);
        Assert.Equal("A-1", context.Orders.FindById(id)!.Number);
        Assert.True(second > first && first > 0);
        Assert.Equal("two", context.Counters.FindById(second)!.Name);
        Assert.Null(context.Orders.FindById(ObjectId.NewObjectId()));
        Assert.Equal(1, context.Orders.Count());
        Assert.True(context.Orders.Exists(id));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Update_upsert_and_delete_report_whether_a_document_was_there(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var order = NewOrder("A-1", "a@x");
        context.Orders.Insert(order);

        order.Status = "shipped";
        Assert.True(context.Orders.Update(order));
        Assert.False(context.Orders.Update(NewOrder("ghost", "g@x", ObjectId.NewObjectId())));
        Assert.False(context.Orders.Upsert(order));
        Assert.True(context.Orders.Upsert(NewOrder("B-2", "b@x", ObjectId.NewObjectId())));
        Assert.Equal("shipped", context.Orders.FindById(order.Id)!.Status);
        Assert.True(context.Orders.Delete(order.Id));
        Assert.False(context.Orders.Delete(order.Id));
        Assert.Equal(1, context.Orders.Count());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_duplicate_id_is_refused_and_changes_nothing(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var order = NewOrder("A-1", "a@x");
        context.Orders.Insert(order);

        var error = Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.Insert(NewOrder("A-2", "b@x", order.Id)));

        Assert.Equal(BLiteUniqueConstraintException.PrimaryIndexName, error.IndexName);
        Assert.Equal("orders", error.CollectionName);
        Assert.Equal("A-1", context.Orders.FindById(order.Id)!.Number);
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void InsertMany_is_all_or_nothing(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var existing = NewOrder("A-1", "a@x");
        context.Orders.Insert(existing);

        Assert.Throws<BLiteUniqueConstraintException>(() => context.Orders.InsertMany([NewOrder("B-1", "b@x"), NewOrder("dup", "d@x", existing.Id)]));

        Assert.Equal(1, context.Orders.Count());
        Assert.Equal(2, context.Orders.InsertMany([NewOrder("B-1", "b@x"), NewOrder("C-1", "c@x")]));
        Assert.Equal(3, context.Orders.Count());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task The_async_operations_match_the_synchronous_ones(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        await using var context = new ProviderContext(database.Options());
        var order = NewOrder("A-1", "a@x");

        var id = await context.Orders.InsertAsync(order);
        order.Status = "delivered";
        Assert.True(await context.Orders.UpdateAsync(order));
        Assert.True(await context.Orders.UpsertAsync(NewOrder("B-1", "b@x", ObjectId.NewObjectId())));
        Assert.Equal(2, await context.Orders.InsertManyAsync([NewOrder("C-1", "c@x"), NewOrder("D-1", "d@x")]));
        Assert.Equal("delivered", (await context.Orders.FindByIdAsync(id))!.Status);
        Assert.True(await context.Orders.ExistsAsync(id));
        Assert.Equal(4, await context.Orders.CountAsync());
        Assert.True(await context.Orders.DeleteAsync(id));
        Assert.Null(await context.Orders.FindByIdAsync(id));
        Assert.Equal(3, await context.Counters.InsertAsync(new Counter { Name = "x" }) + 2);
    }

    internal static Order NewOrder(string number, string email, ObjectId id = default) => new()
    {
        Id = id,
        Number = number,
        Status = "pending",
        Total = 10.25m,
        PlacedAt = new DateTime(2024, 5, 1, 12, 0, 0, DateTimeKind.Utc),
        Customer = new Contact { Name = "Ann " + number, Email = email },
        Lines = [new Line { Sku = "sku-" + number, Quantity = 2 }],
        Tags = ["new"],
    };
}
