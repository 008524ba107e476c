using BLite.Bson;
using BLite.Core;
using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class DocumentCollectionTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public DocumentCollectionTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Insert_assigns_an_ObjectId_and_FindById_reads_the_document_back()
    {
        var order = Orders.Create(1);

        var id = _db.Orders.Insert(order);

        Assert.NotEqual(ObjectId.Empty, id);
        Assert.Equal(id, order.Id);
        OrderAssert.Same(order, _db.Orders.FindById(id));
    }

    [Fact]
    public void Insert_keeps_an_explicit_id()
    {
        var id = ObjectId.NewObjectId();
        var order = Orders.Create(2, id);

        Assert.Equal(id, _db.Orders.Insert(order));
        OrderAssert.Same(order, _db.Orders.FindById(id));
    }

    [Fact]
    public void FindById_returns_null_for_an_unknown_id()
    {
        _db.Orders.Insert(Orders.Create(1));

        Assert.Null(_db.Orders.FindById(ObjectId.NewObjectId()));
    }

    [Fact]
    public void InsertMany_stores_every_document_and_Count_sees_them()
    {
        var orders = Orders.Many(40);

        Assert.Equal(40, _db.Orders.InsertMany(orders));

        Assert.Equal(40, _db.Orders.Count());
        Assert.All(orders, o => OrderAssert.Same(o, _db.Orders.FindById(o.Id)));
    }

    [Fact]
    public void InsertMany_is_all_or_nothing_when_one_document_is_refused()
    {
        var orders = Orders.Many(5);
        orders[3].Customer.Email = orders[1].Customer.Email;

        Assert.Throws<BLiteUniqueConstraintException>(() => _db.Orders.InsertMany(orders));

        Assert.Equal(0, _db.Orders.Count());
    }

    [Fact]
    public void Update_replaces_the_stored_document_and_reports_a_missing_one()
    {
        var order = Orders.Create(3);
        _db.Orders.Insert(order);
        order.Status = "shipped";
        order.Lines.Add(new OrderLine { Sku = "NEW", Quantity = 9, UnitPrice = 0.5m });

        Assert.True(_db.Orders.Update(order));
        OrderAssert.Same(order, _db.Orders.FindById(order.Id));

        Assert.False(_db.Orders.Update(Orders.Create(4, ObjectId.NewObjectId())));
        Assert.Equal(1, _db.Orders.Count());
    }

    [Fact]
    public void Upsert_inserts_new_documents_and_replaces_existing_ones()
    {
        var order = Orders.Create(5);

        Assert.True(_db.Orders.Upsert(order));
        Assert.NotEqual(ObjectId.Empty, order.Id);
        order.Total = 1m;
        Assert.False(_db.Orders.Upsert(order));

        Assert.Equal(1m, _db.Orders.FindById(order.Id)!.Total);
        Assert.Equal(1, _db.Orders.Count());
    }

    [Fact]
    public void Delete_removes_the_document_once()
    {
        var id = _db.Orders.Insert(Orders.Create(6));

        Assert.True(_db.Orders.Delete(id));
        Assert.False(_db.Orders.Delete(id));
        Assert.Null(_db.Orders.FindById(id));
        Assert.Equal(0, _db.Orders.Count());
    }

    [Fact]
    public void Find_FindOne_FindAll_Count_and_Exists_agree_with_LINQ_to_objects()
    {
        var orders = Orders.Many(60);
        _db.Orders.InsertMany(orders);

        Assert.Equal(
            orders.Where(o => o.Status == "shipped").Select(o => o.Id).Order(),
            _db.Orders.Find(o => o.Status == "shipped").Select(o => o.Id).Order());
        Assert.Equal(orders.Single(o => o.Customer.Email == "c7@example.com").Id, _db.Orders.FindOne(o => o.Customer.Email == "c7@example.com")!.Id);
        Assert.Null(_db.Orders.FindOne(o => o.Customer.Email == "nobody"));
        Assert.Equal(orders.Select(o => o.Id).Order(), _db.Orders.FindAll().Select(o => o.Id));
        Assert.Equal(orders.LongCount(o => o.Total > 300m), _db.Orders.Count(o => o.Total > 300m));
        Assert.True(_db.Orders.Exists(o => o.Lines.Any(l => l.Sku == "SKU-3")));
        Assert.False(_db.Orders.Exists(o => o.Status == "lost"));
        Assert.True(_db.Orders.Exists(orders[0].Id));
        Assert.False(_db.Orders.Exists(ObjectId.NewObjectId()));
    }

    [Fact]
    public void DeleteMany_removes_exactly_the_matching_documents()
    {
        var orders = Orders.Many(40);
        _db.Orders.InsertMany(orders);

        var deleted = _db.Orders.DeleteMany(o => o.Status == "pending" || o.Total < 50m);

        var expected = orders.Where(o => !(o.Status == "pending" || o.Total < 50m)).Select(o => o.Id).Order().ToList();
        Assert.Equal(orders.Count - expected.Count, deleted);
        Assert.Equal(expected, _db.Orders.FindAll().Select(o => o.Id));
        Assert.Equal(expected.Count, _db.Orders.Count());
    }

    [Fact]
    public void A_unique_index_declared_in_the_model_refuses_a_duplicate_and_changes_nothing()
    {
        var first = Orders.Create(1);
        _db.Orders.Insert(first);
        var clash = Orders.Create(2);
        clash.Customer.Email = first.Customer.Email;

        var error = Assert.Throws<BLiteUniqueConstraintException>(() => _db.Orders.Insert(clash));

        Assert.Contains("ix_Customer.email", error.Message);
        Assert.Equal(ObjectId.Empty, clash.Id);
        Assert.Equal(1, _db.Orders.Count());
    }

    [Fact]
    public void A_string_id_must_be_given_and_is_kept()
    {
        _db.Labels.Insert(new Label { Id = "red", Text = "Red" });

        Assert.Equal("Red", _db.Labels.FindById("red")!.Text);
        Assert.Throws<ArgumentException>(() => _db.Labels.Insert(new Label { Id = null!, Text = "none" }));
    }

    [Fact]
    public void The_context_verifies_clean_after_a_mix_of_operations()
    {
        var orders = Orders.Many(30);
        _db.Orders.InsertMany(orders);
        _db.Orders.DeleteMany(o => o.Status == "confirmed");
        orders[0].Status = "delivered";
        _db.Orders.Update(orders[0]);

        var report = _db.Database.Verify();

        Assert.True(report.IsValid, report.ToString());
    }
}
