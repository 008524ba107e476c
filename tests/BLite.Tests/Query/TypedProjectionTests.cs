using BLite.Bson;

namespace BLite.Tests.Query;

/// <summary>
/// Prepared projections into named types whose shape the generator saw get a typed constructor
/// (no row, no boxing, no reflection); each must give what LINQ to Objects gives over the same
/// documents, including null members, a path through a null object and members a document lacks.
/// A path that reaches nothing reads null, as in every pushed-down projection.
/// </summary>
public sealed class TypedProjectionTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static List<Parcel> Parcels(int count)
    {
        var random = new Random(16);
        return Enumerable.Range(0, count).Select(i => new Parcel
        {
            Id = ObjectId.NewObjectId(),
            Label = "parcel-" + i,
            Note = i % 3 == 0 ? null : "note " + random.Next(100),
            Weight = i % 4 == 0 ? null : random.Next(1, 50),
            Count = random.Next(10),
            Price = random.Next(1, 100_000) / 100m,
            Kind = (ParcelKind)(i % 2),
            Destination = i % 5 == 0 ? null : new Destination { City = "city-" + (i % 7), Zip = i % 2 == 0 ? null : "Z" + i },
        }).ToList();
    }

    [Fact]
    public void Typed_projections_by_id_match_LINQ_to_objects_with_null_members_and_null_objects()
    {
        var parcels = Parcels(60);
        using var db = new ParcelContext(DocumentDbContextOptions.ForMemory());
        db.Parcels.InsertMany(parcels);
        var cards = db.Parcels.Project(p => new ParcelCard(p.Label, p.Price));
        var notes = db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        var tags = db.Parcels.Project(p => new PriceTag(p.Id, p.Price, p.Kind));
        var summaries = db.Parcels.Project(p => new ParcelSummary(p.Id, p.Label) { City = p.Destination!.City, Weight = p.Weight, Price = p.Price });

        Assert.All(new[] { cards.IsTyped, notes.IsTyped, tags.IsTyped, summaries.IsTyped }, Assert.True);
        foreach (var parcel in parcels)
        {
            Assert.Equal(new[] { parcel }.Select(p => new ParcelCard(p.Label, p.Price)).Single(), cards.FindById(parcel.Id));
            Assert.Equal(new[] { parcel }.Select(p => new ParcelNotes(p.Note, p.Weight, p.Destination?.City, p.Destination?.Zip)).Single(), notes.FindById(parcel.Id));
            Assert.Equal(new[] { parcel }.Select(p => new PriceTag(p.Id, p.Price, p.Kind)).Single(), tags.FindById(parcel.Id));
            Assert.Equal(new[] { parcel }.Select(p => new ParcelSummary(p.Id, p.Label) { City = p.Destination?.City, Weight = p.Weight, Price = p.Price }).Single(),
                summaries.FindById(parcel.Id));
        }

        Assert.Contains(parcels, p => p.Note is null);
        Assert.Contains(parcels, p => p.Destination is null);
        Assert.Contains(parcels, p => p.Destination is { Zip: null });
        Assert.Null(cards.FindById(ObjectId.NewObjectId()));
        Assert.False(tags.TryFindById(ObjectId.NewObjectId(), out _));
    }

    [Fact]
    public void Typed_and_row_projections_agree_on_every_document()
    {
        var parcels = Parcels(40);
        using var db = new ParcelContext(DocumentDbContextOptions.ForMemory());
        db.Parcels.InsertMany(parcels);
        var typed = db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        var anonymous = db.Parcels.Project(p => new { p.Note, p.Weight, p.Destination!.City, p.Destination.Zip });

        Assert.True(typed.IsTyped);
        Assert.False(anonymous.IsTyped);
        foreach (var parcel in parcels)
        {
            var row = anonymous.FindById(parcel.Id)!;
            Assert.Equal(new ParcelNotes(row.Note, row.Weight, row.City, row.Zip), typed.FindById(parcel.Id));
        }
    }

    [Fact]
    public void Members_a_stored_document_lacks_read_as_null_and_a_missing_value_type_throws_as_the_row_path_does()
    {
        var path = _directory.File("parcels.blite");
        var old = new ParcelV1 { Id = ObjectId.NewObjectId(), Label = "old", Price = 12.5m };
        using (var v1 = new ParcelV1Context(path))
        {
            v1.Parcels.Insert(old);
        }

        using var db = new ParcelContext(path);
        var summaries = db.Parcels.Project(p => new ParcelSummary(p.Id, p.Label) { City = p.Destination!.City, Weight = p.Weight, Price = p.Price });
        var counts = db.Parcels.Project(p => new CountCard(p.Count));
        var rowCounts = db.Parcels.Project(p => new { p.Count });

        Assert.True(summaries.IsTyped);
        Assert.True(counts.IsTyped);
        Assert.Equal(new ParcelSummary(old.Id, "old") { City = null, Weight = null, Price = 12.5m }, summaries.FindById(old.Id));
        var typedError = Assert.Throws<InvalidOperationException>(() => counts.FindById(old.Id));
        var rowError = Assert.Throws<InvalidOperationException>(() => rowCounts.FindById(old.Id));
        Assert.Contains("'Count'", typedError.Message);
        Assert.Contains("Count", rowError.Message);
    }

    [Fact]
    public void Shapes_the_generator_does_not_build_keep_the_row_path_and_the_same_results()
    {
        var parcels = Parcels(20);
        using var db = new ParcelContext(DocumentDbContextOptions.ForMemory());
        db.Parcels.InsertMany(parcels);
        var computed = db.Parcels.Project(p => new ParcelCard(p.Label + "!", p.Price * 2));
        var converted = db.Parcels.Project(p => new CountCard((int)p.Price));

        Assert.False(computed.IsTyped);
        Assert.False(converted.IsTyped);
        foreach (var parcel in parcels)
        {
            Assert.Equal(new ParcelCard(parcel.Label + "!", parcel.Price * 2), computed.FindById(parcel.Id));
            Assert.Equal(new CountCard((int)parcel.Price), converted.FindById(parcel.Id));
        }
    }

    [Fact]
    public void Members_asked_for_in_any_order_or_twice_read_their_own_values_and_repeated_strings_share_one_instance()
    {
        var parcels = Parcels(30);
        foreach (var parcel in parcels)
        {
            parcel.Label = "label-" + (parcel.Count % 3);
        }

        using var db = new ParcelContext(DocumentDbContextOptions.ForMemory());
        db.Parcels.InsertMany(parcels);
        var backwards = db.Parcels.Project(p => new BackwardsCard(p.Kind, p.Price, p.Label, p.Label));

        Assert.True(backwards.IsTyped);
        var cards = parcels.Select(p => backwards.FindById(p.Id)!).ToList();
        Assert.Equal(parcels.Select(p => new BackwardsCard(p.Kind, p.Price, p.Label, p.Label)), cards);

        // Equal short labels read from different documents are one string, as FindById gives them.
        var sameLabel = cards.Where(c => c.Label == cards[0].Label).ToList();
        Assert.True(sameLabel.Count > 1);
        Assert.All(sameLabel, c => Assert.Same(cards[0].Label, c.Label));
        Assert.All(cards, c => Assert.Same(c.Label, c.Again));
    }
}
