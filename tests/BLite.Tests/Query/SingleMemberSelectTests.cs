using BLite.Bson;
using BLite.Linq;

namespace BLite.Tests.Query;

/// <summary>
/// A query that ends by selecting one stored member as is (<c>Select(p =&gt; p.Id)</c>) reads each
/// value straight into the member's type, without a row or a selector per document. Its results
/// must equal LINQ to Objects for every member kind, null and missing members included, follow
/// each execution's captured values and the collection's current indexes, and see the writes of
/// the transaction they run in.
/// </summary>
public sealed class SingleMemberSelectTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static List<Parcel> Parcels(int count)
    {
        var random = new Random(61);
        return Enumerable.Range(0, count).Select(i => new Parcel
        {
            Id = ObjectId.NewObjectId(),
            Label = "parcel-" + (i % 9),
            Note = i % 3 == 0 ? null : "note " + random.Next(100),
            Weight = i % 4 == 0 ? null : random.Next(1, 50),
            Count = random.Next(10),
            Price = random.Next(1, 100_000) / 100m,
            Kind = (ParcelKind)(i % 2),
            Destination = i % 5 == 0 ? null : new Destination { City = "city-" + (i % 7), Zip = i % 2 == 0 ? null : "Z" + i },
        }).ToList();
    }

    [Fact]
    public void Every_member_kind_selected_alone_matches_LINQ_to_objects_for_each_captured_value()
    {
        var parcels = Parcels(90);
        using var db = new ParcelContext(DocumentDbContextOptions.ForMemory());
        db.Parcels.InsertMany(parcels);
        var rows = 0;
        for (var least = 0; least <= 10; least += 2)
        {
            var expected = parcels.Where(p => p.Count >= least).OrderBy(p => p.Id).ToList();
            var query = db.Parcels.Query().Where(p => p.Count >= least).OrderBy(p => p.Id);
            Assert.Equal(expected.Select(p => p.Id), query.Select(p => p.Id).ToList());
            Assert.Equal(expected.Select(p => p.Label), query.Select(p => p.Label).ToList());
            Assert.Equal(expected.Select(p => p.Note), query.Select(p => p.Note).ToList());
            Assert.Equal(expected.Select(p => p.Weight), query.Select(p => p.Weight).ToList());
            Assert.Equal(expected.Select(p => p.Count), query.Select(p => p.Count).ToList());
            Assert.Equal(expected.Select(p => p.Price), query.Select(p => p.Price).ToList());
            Assert.Equal(expected.Select(p => p.Kind), query.Select(p => p.Kind).ToList());
            Assert.Equal(expected.Select(p => p.Destination?.City), query.Select(p => p.Destination!.City).ToList());
            Assert.Equal(expected.Select(p => p.Destination?.Zip), query.Select(p => p.Destination!.Zip).ToList());

            // The row path (a member read at another type) gives the same values.
            Assert.Equal(expected.Select(p => (long)p.Count), query.Select(p => (long)p.Count).ToList());
            rows += expected.Count;
        }

        Assert.True(rows > 150, $"only {rows} rows over every bound");
    }

    [Fact]
    public void A_value_type_member_a_document_lacks_throws_as_the_row_path_does_and_a_nullable_one_reads_null()
    {
        var path = _directory.File("parcels.blite");
        var old = new ParcelV1 { Id = ObjectId.NewObjectId(), Label = "old", Price = 12.5m };
        using (var v1 = new ParcelV1Context(path))
        {
            v1.Parcels.Insert(old);
        }

        using var db = new ParcelContext(path);
        var typed = Assert.Throws<InvalidOperationException>(() => db.Parcels.Query().Select(p => p.Count).ToList());
        var row = Assert.Throws<InvalidOperationException>(() => db.Parcels.Query().Select(p => new { p.Count }).ToList());
        Assert.Equal(row.Message, typed.Message);
        Assert.Contains("'Count'", typed.Message, StringComparison.Ordinal);

        Assert.Equal([null], db.Parcels.Query().Select(p => p.Weight).ToList());
        Assert.Equal([null], db.Parcels.Query().Select(p => p.Note).ToList());
        Assert.Equal([old.Id], db.Parcels.Query().Select(p => p.Id).ToList());
        Assert.Equal(["old"], db.Parcels.Query().Select(p => p.Label).ToList());
    }

    [Fact]
    public void Ids_of_a_label_follow_each_captured_value_and_the_index_as_it_is_created_and_dropped()
    {
        var parcels = Parcels(120);
        using var db = new ParcelContext(_directory.File("indexed.blite"));
        db.Parcels.InsertMany(parcels);
        var raw = db.Database.GetCollection("parcels");
        string[] labels = ["parcel-3", "parcel-7", "parcel-3", "no such label", "parcel-0"];
        for (var round = 0; round < 4; round++)
        {
            var indexed = round % 2 == 0;
            Assert.True(indexed ? raw.EnsureIndex("by_label", "Label") : raw.DropIndex("by_label"));
            foreach (var label in labels)
            {
                var query = db.Parcels.Query().Where(p => p.Label == label);
                Assert.StartsWith(indexed ? "IXSCAN by_label" : "COLLSCAN", query.Explain(), StringComparison.Ordinal);
                var expected = parcels.Where(p => p.Label == label).Select(p => p.Id).Order().ToList();
                Assert.Equal(expected, query.Select(p => p.Id).ToList());
                Assert.Equal(expected.Count, query.Select(p => p.Label).ToList().Count(l => l == label));
            }
        }

        Assert.Equal(13, parcels.Count(p => p.Label == "parcel-3"));
    }

    [Fact]
    public void Inside_a_transaction_the_values_include_its_own_writes_and_are_gone_after_a_rollback()
    {
        var parcels = Parcels(30);
        using var db = new ParcelContext(_directory.File("transaction.blite"));
        db.Parcels.InsertMany(parcels);
        var added = new Parcel { Id = ObjectId.NewObjectId(), Label = "added", Count = 42, Price = 1m };
        var before = parcels.Select(p => p.Id).Order().ToList();

        using (db.BeginTransaction())
        {
            db.Parcels.Insert(added);
            Assert.Equal([.. before, added.Id], db.Parcels.Query().OrderBy(p => p.Id).Select(p => p.Id).ToList());
            Assert.Equal([42], db.Parcels.Query().Where(p => p.Label == "added").Select(p => p.Count).ToList());
        }

        Assert.Equal(before, db.Parcels.Query().OrderBy(p => p.Id).Select(p => p.Id).ToList());
        Assert.Empty(db.Parcels.Query().Where(p => p.Label == "added").Select(p => p.Count).ToList());
    }
}
