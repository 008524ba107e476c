using BLite.Core;

namespace BLite.Tests.Ids;

public sealed class CustomIdTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_record_struct_id_round_trips_through_insert_find_update_and_delete()
    {
        using var db = new TypedIdContext(_directory.File());
        var id = new OrderId(Guid.NewGuid());
        Assert.Equal(id, db.Orders.Insert(new TypedOrder { Id = id, Status = "new", Quantity = 2 }));

        var found = db.Orders.FindById(id)!;
        Assert.Equal(id, found.Id);
        Assert.Equal("new", found.Status);

        found.Status = "shipped";
        Assert.True(db.Orders.Update(found));
        Assert.Equal("shipped", db.Orders.FindById(id)!.Status);
        Assert.True(db.Orders.Exists(id));

        Assert.True(db.Orders.Delete(id));
        Assert.Null(db.Orders.FindById(id));
        Assert.False(db.Orders.Delete(id));
    }

    [Fact]
    public void An_empty_guid_keyed_id_is_generated_and_converted_back()
    {
        using var db = new TypedIdContext(_directory.File());
        var order = new TypedOrder { Status = "a" };
        var id = db.Orders.Insert(order);

        Assert.NotEqual(Guid.Empty, id.Value);
        Assert.Equal(id, order.Id);
        Assert.Equal("a", db.Orders.FindById(id)!.Status);
        Assert.NotEqual(id, db.Orders.Insert(new TypedOrder { Status = "b" }));
    }

    [Fact]
    public void The_stored_id_is_the_converted_key()
    {
        using var db = new TypedIdContext(_directory.File());
        var key = Guid.NewGuid();
        db.Orders.Insert(new TypedOrder { Id = new OrderId(key), Status = "x" });
        db.Customers.Insert(new Customer { Id = new CustomerCode("C-1"), Name = "Ada" });

        var order = Assert.Single(db.Database.GetCollection("Orders").FindAll());
        Assert.Equal(key, order["_id"].AsGuid);
        var customer = Assert.Single(db.Database.GetCollection("Customers").FindAll());
        Assert.Equal("C-1", customer["_id"].AsString);
    }

    [Fact]
    public void A_class_id_over_a_string_key_round_trips_and_is_never_generated()
    {
        var path = _directory.File();
        using (var db = new TypedIdContext(path))
        {
            db.Customers.Insert(new Customer { Id = new CustomerCode("b-2"), Name = "Bob" });
            db.Customers.Insert(new Customer { Id = new CustomerCode("a-1"), Name = "Ada" });
            Assert.Throws<ArgumentException>(() => db.Customers.Insert(new Customer { Name = "nobody" }));
        }

        using (var reopened = new TypedIdContext(path))
        {
            Assert.Equal("Ada", reopened.Customers.FindById(new CustomerCode("a-1"))!.Name);
            var bob = reopened.Customers.FindById(new CustomerCode("b-2"))!;
            bob.Name = "Robert";
            Assert.True(reopened.Customers.Update(bob));
            Assert.Equal("Robert", reopened.Customers.FindById(new CustomerCode("b-2"))!.Name);
            Assert.True(reopened.Customers.Delete(new CustomerCode("a-1")));
            Assert.Equal(["b-2"], reopened.Customers.FindAll().Select(c => c.Id.Value));
        }
    }

    [Fact]
    public void Queries_see_documents_with_converted_ids()
    {
        using var db = new TypedIdContext(_directory.File());
        var ids = Enumerable.Range(0, 5).Select(i => db.Orders.Insert(new TypedOrder { Status = i % 2 == 0 ? "even" : "odd", Quantity = i })).ToList();

        var even = db.Orders.Query().Where(o => o.Status == "even").OrderBy(o => o.Quantity).Select(o => o.Id).ToList();
        Assert.Equal([ids[0], ids[2], ids[4]], even);
    }

    [Fact]
    public void Linq_predicates_on_a_converted_id_compare_the_stored_key()
    {
        using var db = new TypedIdContext(_directory.File());
        var ids = Enumerable.Range(0, 4).Select(i => db.Orders.Insert(new TypedOrder { Quantity = i })).ToList();
        var wanted = ids[2];

        Assert.Equal(2, db.Orders.Query().Single(o => o.Id == wanted).Quantity);
        Assert.Equal(3, db.Orders.Count(o => o.Id != wanted));
        var pair = new[] { ids[0], ids[3] };
        Assert.Equal([0, 3], db.Orders.Query().Where(o => pair.Contains(o.Id)).OrderBy(o => o.Quantity).Select(o => o.Quantity).ToList());

        db.Customers.Insert(new Customer { Id = new CustomerCode("k"), Name = "Kim" });
        var code = new CustomerCode("k");
        Assert.Equal("Kim", db.Customers.FindOne(c => c.Id == code)!.Name);
    }

    [Fact]
    public void Ordering_by_a_converted_id_follows_the_stored_key()
    {
        using var db = new TypedIdContext(_directory.File());
        foreach (var code in new[] { "m", "b", "x", "a" })
        {
            db.Customers.Insert(new Customer { Id = new CustomerCode(code), Name = code.ToUpperInvariant() });
        }

        Assert.Equal(["A", "B", "M", "X"], db.Customers.Query().OrderBy(c => c.Id).Select(c => c.Name).ToList());
    }

    [Fact]
    public void A_missing_converter_fails_the_context_construction_naming_the_type_and_the_call()
    {
        var error = Assert.Throws<BLiteException>(() => new MissingConverterContext(_directory.File()));

        Assert.Contains("TypedOrder", error.Message);
        Assert.Contains("OrderId", error.Message);
        Assert.Contains("HasIdConverter", error.Message);
    }
}
