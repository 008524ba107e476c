using BLite.Bson;
using BLite.Core.Collections;

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
}
