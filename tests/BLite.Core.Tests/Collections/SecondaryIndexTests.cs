using BLite.Bson;
using BLite.Core.Collections;

namespace BLite.Core.Tests.Collections;

public sealed class SecondaryIndexTests
{
    private static List<int> Ids(IEnumerable<BsonDocument> documents) => documents.Select(d => d["_id"].AsInt32).ToList();

    [Fact]
    public void Equality_lookup_on_a_non_unique_index_returns_every_match_in_id_order()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        orders.EnsureIndex("byStatus", "status");
        string[] statuses = ["pending", "shipped", "delivered"];
        orders.InsertMany(Enumerable.Range(0, 300).Reverse().Select(i => new BsonDocument { ["_id"] = i, ["status"] = statuses[i % 3] }));

        Assert.Equal(Enumerable.Range(0, 300).Where(i => i % 3 == 1).ToList(), Ids(orders.FindByIndex("byStatus", "shipped")));
        Assert.Empty(orders.FindByIndex("byStatus", "lost"));
    }

    [Fact]
    public void Nested_path_is_indexed_and_follows_updates_and_deletes()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        orders.EnsureIndex("byEmail", "customer.email", unique: true);
        orders.Insert(new BsonDocument { ["_id"] = 1, ["customer"] = new BsonDocument { ["email"] = "a@x" } });
        orders.Insert(new BsonDocument { ["_id"] = 2, ["customer"] = new BsonDocument { ["email"] = "b@x" } });

        orders.Update(new BsonDocument { ["_id"] = 1, ["customer"] = new BsonDocument { ["email"] = "c@x" } });
        orders.Delete(2);

        Assert.Empty(orders.FindByIndex("byEmail", "a@x"));
        Assert.Empty(orders.FindByIndex("byEmail", "b@x"));
        Assert.Equal([1], Ids(orders.FindByIndex("byEmail", "c@x")));
        orders.Insert(new BsonDocument { ["_id"] = 3, ["customer"] = new BsonDocument { ["email"] = "a@x" } });
    }

    [Fact]
    public void Array_field_gets_one_entry_per_element()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        orders.EnsureIndex("byTag", "tags");
        orders.Insert(new BsonDocument { ["_id"] = 1, ["tags"] = new BsonArray { "gift", "vip", "gift" } });
        orders.Insert(new BsonDocument { ["_id"] = 2, ["tags"] = new BsonArray { "vip" } });
        orders.Insert(new BsonDocument { ["_id"] = 3, ["tags"] = new BsonArray() });

        Assert.Equal([1], Ids(orders.FindByIndex("byTag", "gift")));
        Assert.Equal([1, 2], Ids(orders.FindByIndex("byTag", "vip")));
        Assert.Equal([3], Ids(orders.FindByIndex("byTag", BsonValue.Null)));

        orders.Update(new BsonDocument { ["_id"] = 1, ["tags"] = new BsonArray { "eco" } });
        Assert.Empty(orders.FindByIndex("byTag", "gift"));
        Assert.Equal([2], Ids(orders.FindByIndex("byTag", "vip")));
        Assert.Equal([1], Ids(orders.FindByIndex("byTag", "eco")));
    }

    [Fact]
    public void Path_through_an_array_of_documents_indexes_each_element()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        orders.EnsureIndex("bySku", "lines.sku");
        orders.Insert(new BsonDocument
        {
            ["_id"] = 1,
            ["lines"] = new BsonArray { new BsonDocument { ["sku"] = "A" }, new BsonDocument { ["sku"] = "B" }, new BsonDocument { ["qty"] = 1 } },
        });

        Assert.Equal([1], Ids(orders.FindByIndex("bySku", "A")));
        Assert.Equal([1], Ids(orders.FindByIndex("bySku", "B")));
        Assert.Equal([1], Ids(orders.FindByIndex("bySku", BsonValue.Null)));
    }

    [Fact]
    public void Missing_field_indexes_as_null()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byColor", "color");
        items.Insert(new BsonDocument { ["_id"] = 1 });
        items.Insert(new BsonDocument { ["_id"] = 2, ["color"] = BsonValue.Null });
        items.Insert(new BsonDocument { ["_id"] = 3, ["color"] = "red" });

        Assert.Equal([1, 2], Ids(items.FindByIndex("byColor", BsonValue.Null)));
    }

    [Fact]
    public void Composite_index_matches_whole_keys_and_leading_prefixes_with_nulls()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex(new IndexDefinition("byCityAge", ["city", "age"]));
        items.Insert(new BsonDocument { ["_id"] = 1, ["city"] = "Oslo", ["age"] = 30 });
        items.Insert(new BsonDocument { ["_id"] = 2, ["city"] = "Oslo" });
        items.Insert(new BsonDocument { ["_id"] = 3, ["age"] = 30 });
        items.Insert(new BsonDocument { ["_id"] = 4, ["city"] = "Oslo", ["age"] = 20 });
        items.Insert(new BsonDocument { ["_id"] = 5, ["city"] = "Lyon", ["age"] = 30 });

        Assert.Equal([1], Ids(items.FindByIndex("byCityAge", "Oslo", 30)));
        Assert.Equal([2], Ids(items.FindByIndex("byCityAge", "Oslo", BsonValue.Null)));
        Assert.Equal([3], Ids(items.FindByIndex("byCityAge", BsonValue.Null, 30)));
        Assert.Equal([2, 4, 1], Ids(items.FindByIndex("byCityAge", "Oslo")));
    }

    [Fact]
    public void Range_scans_run_forwards_and_backwards_with_inclusive_and_exclusive_bounds()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byScore", "score");
        items.InsertMany(Enumerable.Range(0, 100).Select(i => new BsonDocument { ["_id"] = i, ["score"] = (i * 37) % 100 }));
        var byScore = Enumerable.Range(0, 100).OrderBy(i => (i * 37) % 100).ToList();
        int Score(int id) => (id * 37) % 100;

        Assert.Equal(byScore.Where(i => Score(i) is >= 10 and <= 20), Ids(items.FindByIndexRange("byScore", 10, 20)));
        Assert.Equal(byScore.Where(i => Score(i) is > 10 and < 20), Ids(items.FindByIndexRange("byScore", 10, 20, false, false)));
        Assert.Equal(byScore.Where(i => Score(i) >= 90).Reverse(), Ids(items.FindByIndexRange("byScore", 90, null, descending: true)));
        Assert.Equal(byScore.Where(i => Score(i) <= 5).Reverse(), Ids(items.FindByIndexRange("byScore", null, 5, descending: true)));
        Assert.Equal(byScore.AsEnumerable().Reverse(), Ids(items.FindByIndexRange("byScore", null, null, descending: true)));
    }

    [Fact]
    public void Unique_violation_names_the_index_and_leaves_the_rest_of_the_transaction_to_commit()
    {
        using var test = new CollectionsTestDatabase();
        var users = test.Collection("users");
        users.EnsureIndex("byEmail", "email", unique: true);
        users.Insert(new BsonDocument { ["_id"] = 1, ["email"] = "a@x" });

        using (var write = test.Database.BeginWrite())
        {
            users.Insert(write, new BsonDocument { ["_id"] = 2, ["email"] = "b@x" });
            var error = Assert.Throws<BLiteUniqueConstraintException>(() =>
                users.Insert(write, new BsonDocument { ["_id"] = 3, ["email"] = "a@x", ["newField"] = 1 }));
            Assert.Equal("byEmail", error.IndexName);
            Assert.Equal("users", error.CollectionName);
            Assert.Equal("\"a@x\"", error.DuplicateValue);
            Assert.Throws<BLiteUniqueConstraintException>(() =>
                users.Update(write, new BsonDocument { ["_id"] = 2, ["email"] = "a@x" }));

            Assert.Null(users.FindById(write, 3));
            Assert.Equal("b@x", users.FindById(write, 2)!["email"].AsString);
            Assert.Equal(2, users.Count(write));
            users.Insert(write, new BsonDocument { ["_id"] = 4, ["email"] = "d@x" });
            write.Commit();
        }

        Assert.Equal([1, 2, 4], Ids(users.FindAll()));
        Assert.Equal([2], Ids(users.FindByIndex("byEmail", "b@x")));
        Assert.Equal([1], Ids(users.FindByIndex("byEmail", "a@x")));
    }

    [Fact]
    public void Unique_index_accepts_a_document_keeping_its_own_value_and_array_duplicates_within_one_document()
    {
        using var test = new CollectionsTestDatabase();
        var users = test.Collection("users");
        users.EnsureIndex("byAlias", "aliases", unique: true);
        users.Insert(new BsonDocument { ["_id"] = 1, ["aliases"] = new BsonArray { "ada", "ada", "countess" } });

        Assert.True(users.Update(new BsonDocument { ["_id"] = 1, ["aliases"] = new BsonArray { "countess", "lovelace" } }));
        users.Insert(new BsonDocument { ["_id"] = 2, ["aliases"] = new BsonArray { "ada" } });
        Assert.Throws<BLiteUniqueConstraintException>(() => users.Insert(new BsonDocument { ["_id"] = 3, ["aliases"] = new BsonArray { "x", "lovelace" } }));
    }

    [Fact]
    public void Creating_an_index_on_a_populated_collection_builds_it_and_dropping_it_frees_it()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.InsertMany(Enumerable.Range(0, 2000).Select(i => new BsonDocument { ["_id"] = i, ["group"] = i % 10, ["pad"] = new string('p', 50) }));

        Assert.True(items.EnsureIndex("byGroup", "group"));
        Assert.False(items.EnsureIndex("byGroup", "group"));
        Assert.Equal(Enumerable.Range(0, 2000).Where(i => i % 10 == 3), Ids(items.FindByIndex("byGroup", 3)));
        CollectionsTestDatabase.AssertValid(test.Database);

        Assert.True(items.DropIndex("byGroup"));
        Assert.False(items.DropIndex("byGroup"));
        Assert.Empty(items.GetIndexes());
        Assert.Throws<BLiteException>(() => items.FindByIndex("byGroup", 3).ToList());
    }

    [Fact]
    public void Building_a_unique_index_over_duplicates_is_refused_and_changes_nothing()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.InsertMany(Enumerable.Range(0, 50).Select(i => new BsonDocument { ["_id"] = i, ["code"] = i == 40 ? 7 : i }));

        using (var write = test.Database.BeginWrite())
        {
            var error = Assert.Throws<BLiteUniqueConstraintException>(() => items.EnsureIndex(write, new IndexDefinition("byCode", "code", unique: true)));
            Assert.Equal("7", error.DuplicateValue);
            Assert.Empty(items.GetIndexes(write));
            write.Commit();
        }

        Assert.Empty(items.GetIndexes());
    }

    [Fact]
    public void Redefining_an_index_under_the_same_name_is_refused()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byA", "a");

        var error = Assert.Throws<BLiteException>(() => items.EnsureIndex("byA", "b"));
        Assert.Contains("byA", error.Message);
    }

    [Fact]
    public void Deleting_every_document_empties_every_index()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byTag", "tags");
        items.EnsureIndex("byName", "name", unique: true);
        items.InsertMany(Enumerable.Range(0, 1500).Select(i => new BsonDocument
        {
            ["_id"] = i,
            ["name"] = "item-" + i,
            ["tags"] = new BsonArray { "t" + (i % 7), "t" + (i % 11) },
        }));

        using (var write = test.Database.BeginWrite())
        {
            for (var i = 0; i < 1500; i++)
            {
                Assert.True(items.Delete(write, i));
            }

            write.Commit();
        }

        Assert.Equal(0, items.Count());
        Assert.Empty(items.FindAll());
        Assert.Empty(items.FindByIndexRange("byTag", null, null));
        Assert.Empty(items.FindByIndexRange("byName", null, null));
        items.Insert(new BsonDocument { ["_id"] = 1, ["name"] = "item-1" });
    }

    [Fact]
    public void Index_keys_follow_mixed_value_types()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.EnsureIndex("byValue", "value");
        BsonValue[] values = [BsonValue.Null, 1, 2L, 1.5, "1", true, new DateTime(2020, 1, 1), Guid.Empty, 3.25m];
        for (var i = 0; i < values.Length; i++)
        {
            items.Insert(new BsonDocument { ["_id"] = i, ["value"] = values[i] });
        }

        for (var i = 0; i < values.Length; i++)
        {
            Assert.Equal([i], Ids(items.FindByIndex("byValue", values[i])));
        }

        Assert.Equal([0], Ids(items.FindByIndex("byValue", BsonValue.Null)));
        Assert.Equal([1], Ids(items.FindByIndex("byValue", 1L)));
    }
}
