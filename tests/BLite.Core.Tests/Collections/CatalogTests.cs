using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Tests.Collections;

public sealed class CatalogTests
{
    [Fact]
    public void A_catalog_format_1_database_is_refused_naming_the_export_and_import_fix_and_left_untouched()
    {
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, "old.blite");
        using (var database = DocumentDatabase.Open(path))
        {
            var items = database.GetCollection("items");
            items.EnsureIndex("byN", "n");
            items.Insert(new BsonDocument { ["_id"] = 1, ["n"] = 2.5 });
        }

        // Make it look like a database written before numbers shared one key class.
        const int pageSize = 8192;
        var bytes = File.ReadAllBytes(path);
        var catalogPage = bytes.AsSpan(pageSize, pageSize);
        Assert.Equal(2, BitConverter.ToUInt16(catalogPage[4..6]));
        catalogPage[4] = 1;
        PageLayout.Seal(catalogPage, 1);
        File.WriteAllBytes(path, bytes);

        var error = Assert.Throws<BLiteException>(() => DocumentDatabase.Open(path).Dispose());

        Assert.Contains("catalog format version 1", error.Message);
        Assert.Contains($"blite upgrade {path}", error.Message);
        Assert.Equal(bytes, File.ReadAllBytes(path));
    }

    [Fact]
    public void Collections_indexes_documents_and_field_names_survive_reopen()
    {
        using var test = new CollectionsTestDatabase();
        var orders = test.Collection("orders");
        orders.EnsureIndex("byEmail", "customer.email", unique: true);
        orders.Insert(new BsonDocument { ["_id"] = 1, ["customer"] = new BsonDocument { ["email"] = "a@x" }, ["note"] = "first" });
        test.Collection("audit").Insert(new BsonDocument { ["_id"] = "e1" });

        test.Reopen();

        orders = test.Collection("orders");
        Assert.Equal(["audit", "orders"], test.Database.GetCollectionNames());
        Assert.Equal([new IndexDefinition("byEmail", "customer.email", unique: true)], orders.GetIndexes());
        Assert.Equal("first", orders.FindById(1)!["note"].AsString);
        Assert.Single(orders.FindByIndex("byEmail", "a@x"));
        Assert.Throws<BLiteUniqueConstraintException>(() =>
            orders.Insert(new BsonDocument { ["_id"] = 2, ["customer"] = new BsonDocument { ["email"] = "a@x" } }));
    }

    [Fact]
    public void Field_names_of_a_rolled_back_transaction_keep_their_ids_and_persist_with_the_next_write()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        using (var write = test.Database.BeginWrite())
        {
            items.Insert(write, new BsonDocument { ["_id"] = 1, ["onlyInRolledBack"] = 1 });
        }

        Assert.True(test.Database.Fields.TryGetId("onlyInRolledBack", out var rolledBackId));
        items.Insert(new BsonDocument { ["_id"] = 2, ["committed"] = "yes" });
        Assert.True(test.Database.Fields.TryGetId("committed", out var committedId));
        Assert.True(committedId > rolledBackId);

        test.Reopen();

        Assert.True(test.Database.Fields.TryGetId("onlyInRolledBack", out var reloadedRolledBack));
        Assert.True(test.Database.Fields.TryGetId("committed", out var reloadedCommitted));
        Assert.Equal(rolledBackId, reloadedRolledBack);
        Assert.Equal(committedId, reloadedCommitted);
        Assert.Equal("yes", test.Collection("items").FindById(2)!["committed"].AsString);
    }

    [Fact]
    public void Reopening_with_an_added_index_builds_it_and_keeps_the_undeclared_ones()
    {
        using var test = new CollectionsTestDatabase([new CollectionDefinition("people", [new IndexDefinition("byName", "name")])]);
        var people = test.Collection("people");
        people.InsertMany(Enumerable.Range(0, 300).Select(i => new BsonDocument { ["_id"] = i, ["name"] = "n" + (i % 30), ["age"] = i % 90 }));

        test.Reopen([new CollectionDefinition("people", [new IndexDefinition("byAge", "age")]), new CollectionDefinition("empty")]);

        people = test.Collection("people");
        Assert.Equal(["byName", "byAge"], people.GetIndexes().Select(i => i.Name));
        Assert.Equal(Enumerable.Range(0, 300).Where(i => i % 90 == 42), people.FindByIndex("byAge", 42).Select(d => d["_id"].AsInt32));
        Assert.Equal(10, people.FindByIndex("byName", "n7").Count());
        Assert.Equal(["empty", "people"], test.Database.GetCollectionNames());
    }

    [Fact]
    public void Sequence_never_hands_out_a_committed_value_again_and_skips_explicit_ids()
    {
        using var test = new CollectionsTestDatabase();
        var raw = test.Database.GetRawCollection("counters");
        long first;
        using (var write = test.Database.BeginWrite())
        {
            first = raw.NextSequenceValue(write);
            Assert.Equal(first + 1, raw.NextSequenceValue(write));
            write.Commit();
        }

        using (var write = test.Database.BeginWrite())
        {
            Assert.Equal(first + 2, raw.NextSequenceValue(write));
        }

        test.Collection("counters").Insert(new BsonDocument { ["_id"] = 100 });
        test.Reopen();

        raw = test.Database.GetRawCollection("counters");
        using (var write = test.Database.BeginWrite())
        {
            Assert.Equal(101, raw.NextSequenceValue(write));
            write.Commit();
        }
    }

    [Fact]
    public void A_reader_keeps_its_snapshot_of_the_catalog_while_a_writer_adds_an_index()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["a"] = 5 });

        using var read = test.Database.BeginRead();
        Assert.Empty(items.GetIndexes(read));
        items.EnsureIndex("byA", "a");

        Assert.Empty(items.GetIndexes(read));
        Assert.Throws<BLiteException>(() => items.FindByIndex(read, "byA", 5).ToList());
        Assert.Single(items.FindByIndex("byA", 5));
    }

    [Fact]
    public void Rolled_back_index_creation_is_invisible_and_the_name_can_be_reused()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["a"] = 5, ["b"] = 6 });

        using (var write = test.Database.BeginWrite())
        {
            items.EnsureIndex(write, new IndexDefinition("idx", "a"));
            Assert.Single(items.FindByIndex(write, "idx", 5));
        }

        Assert.Empty(items.GetIndexes());
        items.EnsureIndex("idx", "b");
        Assert.Single(items.FindByIndex("idx", 6));
    }

    [Fact]
    public void In_memory_database_works_like_a_file_one()
    {
        using var database = DocumentDatabase.OpenInMemory(collections: [new CollectionDefinition("items", [new IndexDefinition("byA", "a")])]);
        var items = database.GetCollection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["a"] = "x" });

        Assert.Single(items.FindByIndex("byA", "x"));
        CollectionsTestDatabase.AssertValid(database);
    }

    [Fact]
    public void Invalid_names_and_paths_are_refused()
    {
        Assert.Throws<ArgumentException>(() => new IndexDefinition("", "a"));
        Assert.Throws<ArgumentException>(() => new IndexDefinition("i", "a..b"));
        Assert.Throws<ArgumentException>(() => new IndexDefinition("i", ".a"));
        Assert.Throws<ArgumentException>(() => new IndexDefinition("i", Array.Empty<string>()));
        Assert.Throws<ArgumentException>(() => new CollectionDefinition(new string('c', 300)));
    }
}
