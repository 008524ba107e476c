using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Collections;

public sealed class LargeDocumentTests
{
    [Fact]
    public void A_16_MB_document_round_trips_through_overflow_and_reopen_and_its_pages_are_freed_on_delete()
    {
        using var test = new CollectionsTestDatabase();
        var blobs = test.Collection("blobs");
        blobs.EnsureIndex("byName", "name");
        var payload = new byte[16 * 1024 * 1024 - 256];
        new Random(16).NextBytes(payload);
        var document = new BsonDocument { ["_id"] = "big", ["name"] = "sixteen", ["payload"] = payload };
        Assert.True(document.ToBytes(test.Database.Fields).Length > 16 * 1024 * 1024 - 256);

        blobs.Insert(document);
        test.Reopen();
        blobs = test.Collection("blobs");

        var found = blobs.FindById("big");
        Assert.NotNull(found);
        Assert.Equal(payload, found["payload"].AsBinary);
        Assert.Single(blobs.FindByIndex("byName", "sixteen"));
        CollectionsTestDatabase.AssertValid(test.Database);

        Assert.True(blobs.Delete("big"));
        Assert.Equal(0, blobs.Count());
    }

    [Fact]
    public void Ids_longer_than_the_stack_key_buffer_are_stored_updated_and_found_on_large_pages()
    {
        using var database = DocumentDatabase.OpenInMemory(new StorageOptions { PageSize = 32 * 1024 });
        Assert.True(database.MaxKeySize > 2048);
        var notes = database.GetCollection("notes");
        var id = new string('k', 3000);

        notes.Insert(new BsonDocument { ["_id"] = id, ["text"] = "first" });
        Assert.True(notes.Update(new BsonDocument { ["_id"] = id, ["text"] = "second" }));
        Assert.False(notes.Upsert(new BsonDocument { ["_id"] = id, ["text"] = "third" }));

        Assert.Equal("third", notes.FindById(id)!["text"].AsString);
        Assert.Equal(1, notes.Count());
        Assert.True(database.Verify().IsValid);
    }
}
