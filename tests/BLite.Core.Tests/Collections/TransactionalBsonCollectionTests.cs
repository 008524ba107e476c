using BLite.Bson;
using BLite.Core.Collections;

namespace BLite.Core.Tests.Collections;

public sealed class BsonCollectionTests
{
    [Fact]
    public void Inserted_document_is_found_by_id_with_every_field_intact()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        var placed = new DateTime(2025, 3, 4, 5, 6, 7, DateTimeKind.Utc).AddTicks(1234);
        var document = new BsonDocument
        {
            ["_id"] = 42,
            ["total"] = 12.345m,
            ["placed"] = placed,
            ["customer"] = new BsonDocument { ["email"] = "ada@example.org" },
            ["tags"] = new BsonArray { "gift", "express" },
        };

        orders.Insert(document);

        var found = orders.FindById(42);
        Assert.NotNull(found);
        Assert.Equal(document, found);
        Assert.Equal(placed, found["placed"].AsDateTime);
        Assert.Equal(DateTimeKind.Utc, found["placed"].AsDateTime.Kind);
    }

    [Fact]
    public void Insert_without_id_assigns_a_new_object_id()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        var document = new BsonDocument { ["name"] = "lamp" };

        var id = items.Insert(document);

        Assert.Equal(BsonType.ObjectId, id.Type);
        Assert.Equal(id, document["_id"]);
        Assert.Equal("lamp", items.FindById(id)!["name"].AsString);
    }

    [Fact]
    public void Duplicate_id_is_refused_naming_the_collection_and_nothing_changes()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = "a", ["v"] = 1 });

        var error = Assert.Throws<BLiteUniqueConstraintException>(() => items.Insert(new BsonDocument { ["_id"] = "a", ["v"] = 2 }));

        Assert.Equal("items", error.CollectionName);
        Assert.Equal(BLiteUniqueConstraintException.PrimaryIndexName, error.IndexName);
        Assert.Contains("\"a\"", error.Message);
        Assert.Equal(1, items.FindById("a")!["v"].AsInt32);
        Assert.Equal(1, items.Count());
    }

    [Fact]
    public void Update_replaces_an_existing_document_and_reports_a_missing_one()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["v"] = "old" });

        Assert.True(items.Update(new BsonDocument { ["_id"] = 1, ["v"] = "new" }));
        Assert.False(items.Update(new BsonDocument { ["_id"] = 2, ["v"] = "none" }));

        Assert.Equal("new", items.FindById(1)!["v"].AsString);
        Assert.Null(items.FindById(2));
        Assert.Equal(1, items.Count());
    }

    [Fact]
    public void Upsert_inserts_then_replaces()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");

        Assert.True(items.Upsert(new BsonDocument { ["_id"] = 7L, ["v"] = 1 }));
        Assert.False(items.Upsert(new BsonDocument { ["_id"] = 7L, ["v"] = 2 }));

        Assert.Equal(2, items.FindById(7L)!["v"].AsInt32);
        Assert.Equal(1, items.Count());
    }

    [Fact]
    public void Delete_removes_the_document_and_reports_a_missing_one()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1 });

        Assert.True(items.Delete(1));
        Assert.False(items.Delete(1));
        Assert.Null(items.FindById(1));
        Assert.Equal(0, items.Count());
    }

    [Fact]
    public void Every_id_type_round_trips_and_int32_and_int64_ids_are_the_same_key()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        var objectId = ObjectId.NewObjectId();
        var guid = Guid.NewGuid();
        BsonValue[] ids = [objectId, guid, 5, 6L, "text", new BsonDocument { ["a"] = 1, ["b"] = "x" }];

        foreach (var id in ids)
        {
            items.Insert(new BsonDocument { ["_id"] = id, ["type"] = id.Type.ToString() });
        }

        foreach (var id in ids)
        {
            Assert.Equal(id.Type.ToString(), items.FindById(id)!["type"].AsString);
        }

        Assert.NotNull(items.FindById(5L));
        Assert.Throws<BLiteUniqueConstraintException>(() => items.Insert(new BsonDocument { ["_id"] = 6 }));
        Assert.Null(items.FindById(new BsonDocument { ["a"] = 1, ["b"] = "y" }));
    }

    [Fact]
    public void Scans_run_in_id_order_forwards_backwards_and_over_ranges()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        var shuffled = Enumerable.Range(1, 200).OrderBy(i => (i * 7919) % 211).ToList();
        items.InsertMany(shuffled.Select(i => new BsonDocument { ["_id"] = i }));

        Assert.Equal(Enumerable.Range(1, 200), items.FindAll().Select(d => d["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(1, 200).Reverse(), items.FindAll(descending: true).Select(d => d["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(50, 51), items.FindByIdRange(50, 100).Select(d => d["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(51, 49), items.FindByIdRange(50, 100, lowerInclusive: false, upperInclusive: false).Select(d => d["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(190, 11).Reverse(), items.FindByIdRange(190, null, descending: true).Select(d => d["_id"].AsInt32));
        Assert.Equal(Enumerable.Range(1, 3), items.FindByIdRange(null, 3).Select(d => d["_id"].AsInt32));
    }

    [Fact]
    public void Reads_inside_a_write_transaction_see_its_own_writes_and_others_see_them_only_after_commit()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1 });

        using (var write = test.Database.BeginWrite())
        {
            items.Insert(write, new BsonDocument { ["_id"] = 2 });
            Assert.NotNull(items.FindById(write, 2));
            Assert.Equal(2, items.Count(write));
            using (var read = test.Database.BeginRead())
            {
                Assert.Null(items.FindById(read, 2));
                Assert.Equal(1, items.Count(read));
            }

            write.Commit();
        }

        Assert.NotNull(items.FindById(2));
    }

    [Fact]
    public void Rolled_back_inserts_leave_nothing_behind()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");

        using (var write = test.Database.BeginWrite())
        {
            items.Insert(write, new BsonDocument { ["_id"] = 1, ["brandNewField"] = true });
        }

        Assert.Null(items.FindById(1));
        Assert.Equal(0, items.Count());
        Assert.Empty(test.Database.GetCollectionNames());
    }

    [Fact]
    public void Malformed_document_bytes_are_refused_and_change_nothing()
    {
        using var test = new CollectionsTestDatabase();
        var raw = test.Database.GetRawCollection("items");
        var good = new BsonDocument { ["_id"] = 1, ["v"] = "x" }.ToBytes(test.Database.Fields);
        var truncated = good[..^2];
        var lying = (byte[])good.Clone();
        lying[0] = (byte)(good.Length + 10);

        using var write = test.Database.BeginWrite();
        Assert.Throws<BsonFormatException>(() => raw.Insert(write, truncated));
        Assert.Throws<BsonFormatException>(() => raw.Insert(write, lying));
        Assert.False(raw.Exists(write));
        raw.Insert(write, good);
        write.Commit();
    }

    [Fact]
    public void Document_without_id_is_refused_by_the_raw_collection()
    {
        using var test = new CollectionsTestDatabase();
        var raw = test.Database.GetRawCollection("items");
        var noId = new BsonDocument { ["v"] = 1 }.ToBytes(test.Database.Fields);

        using var write = test.Database.BeginWrite();
        var error = Assert.Throws<BLiteException>(() => raw.Insert(write, noId));
        Assert.Contains("_id", error.Message);
    }

    [Fact]
    public void Dropping_a_collection_removes_it_and_its_pages()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byName", "name");
        items.InsertMany(Enumerable.Range(0, 500).Select(i => new BsonDocument { ["_id"] = i, ["name"] = new string('n', 100) + i }));

        using (var write = test.Database.BeginWrite())
        {
            Assert.True(test.Database.DropCollection(write, "items"));
            Assert.False(test.Database.DropCollection(write, "items"));
            write.Commit();
        }

        Assert.Empty(test.Database.GetCollectionNames());
        Assert.Equal(0, items.Count());
        Assert.Empty(items.FindAll());
    }
}
