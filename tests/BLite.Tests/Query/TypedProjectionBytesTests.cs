using BLite.Bson;

namespace BLite.Tests.Query;

/// <summary>
/// What a prepared projection reads from a stored document's bytes when they are not the ones
/// the generator writes: members in another order, with others between them, stored nulls and
/// missing members give what the row path gives; a truncated document, or a value whose length
/// runs past the end, is refused with a <see cref="BsonFormatException"/>, never read as data.
/// Both the one-walk path (top-level members) and the path through nested members are covered.
/// </summary>
public sealed class TypedProjectionBytesTests : IDisposable
{
    private readonly ParcelContext _db = new(DocumentDbContextOptions.ForMemory());

    public void Dispose() => _db.Dispose();

    /// <summary>The field ids of a member path: one per level.</summary>
    private ushort[] Path(string memberPath) =>
        _db.Parcels.Mapper.TryGetField(memberPath, out var field) ? field.FieldIds.ToArray() : throw new InvalidOperationException(memberPath);

    private ushort Id(string memberPath) => Path(memberPath)[^1];

    private delegate void Fields(ref BsonSpanWriter writer);

    private static byte[] Document(Fields write)
    {
        var buffer = new byte[512];
        var writer = new BsonSpanWriter(buffer);
        var token = writer.BeginDocument();
        write(ref writer);
        writer.EndDocument(token);
        return writer.WrittenSpan.ToArray();
    }

    /// <summary>Price, an unmapped field, a nested Destination, Label: the reverse of the written order, Label last.</summary>
    private byte[] Reordered(string label, decimal price, string? city) => Document((ref BsonSpanWriter w) =>
    {
        w.WriteFieldHeader(BsonType.Decimal128, Id("Price"));
        w.WriteDecimal(price);
        w.WriteFieldHeader(BsonType.Int64, 4000);
        w.WriteInt64(7);
        if (city is not null)
        {
            w.WriteFieldHeader(BsonType.Document, Path("Destination.City")[0]);
            var destination = w.BeginDocument();
            w.WriteFieldHeader(BsonType.String, Id("Destination.City"));
            w.WriteString(city);
            w.EndDocument(destination);
        }

        w.WriteFieldHeader(BsonType.String, Id("Label"));
        w.WriteString(label);
    });

    [Fact]
    public void Members_in_another_order_with_others_between_read_as_the_row_path_reads_them()
    {
        var cards = _db.Parcels.Project(p => new ParcelCard(p.Label, p.Price));
        var rows = _db.Parcels.Project(p => new { p.Label, p.Price });
        var notes = _db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        Assert.True(cards.IsTyped);
        Assert.True(notes.IsTyped);

        var document = Reordered("box-9", 12.75m, "Turin");

        Assert.Equal(new ParcelCard("box-9", 12.75m), cards.Project(document));
        var row = rows.Project(document);
        Assert.Equal(new ParcelCard(row.Label, row.Price), cards.Project(document));
        Assert.Equal(new ParcelNotes(null, null, "Turin", null), notes.Project(document));
    }

    [Fact]
    public void Stored_nulls_and_missing_members_read_as_null_and_a_value_type_without_one_throws()
    {
        var cards = _db.Parcels.Project(p => new ParcelCard(p.Label, p.Price));
        var counts = _db.Parcels.Project(p => new CountCard(p.Count));
        var notes = _db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        var nulls = Document((ref BsonSpanWriter w) =>
        {
            w.WriteFieldHeader(BsonType.Null, Id("Label"));
            w.WriteFieldHeader(BsonType.Decimal128, Id("Price"));
            w.WriteDecimal(1m);
            w.WriteFieldHeader(BsonType.Null, Id("Note"));
            w.WriteFieldHeader(BsonType.Null, Id("Count"));
        });

        Assert.Equal(new ParcelCard(null!, 1m), cards.Project(nulls));
        Assert.Equal(new ParcelNotes(null, null, null, null), notes.Project(nulls));
        Assert.Contains("'Count'", Assert.Throws<InvalidOperationException>(() => counts.Project(nulls)).Message);
        var labelOnly = Document((ref BsonSpanWriter w) =>
        {
            w.WriteFieldHeader(BsonType.String, Id("Label"));
            w.WriteString("box-2");
        });
        Assert.Contains("'Price'", Assert.Throws<InvalidOperationException>(() => cards.Project(labelOnly)).Message);
        Assert.Equal(new ParcelNotes(null, null, null, null), notes.Project(labelOnly));
    }

    public static TheoryData<int> Cuts => [5, 12, 20, 30, 40];

    [Theory]
    [MemberData(nameof(Cuts))]
    public void A_truncated_document_is_refused_on_both_paths(int keep)
    {
        var cards = _db.Parcels.Project(p => new ParcelCard(p.Label, p.Price));
        var notes = _db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        var whole = Reordered("a-long-enough-label", 3.5m, "Genoa");
        Assert.True(keep < whole.Length);

        // The prefix still claims the whole length, and the shorter input with its length patched
        // loses its terminator: either way the bytes end before the document does.
        var cut = whole[..keep];
        var patched = whole[..keep];
        BitConverter.TryWriteBytes(patched, keep);

        Assert.Throws<BsonFormatException>(() => cards.Project(cut));
        Assert.Throws<BsonFormatException>(() => notes.Project(cut));
        Assert.Throws<BsonFormatException>(() => cards.Project(patched));
        Assert.Throws<BsonFormatException>(() => notes.Project(patched));
    }

    [Fact]
    public void A_value_whose_length_runs_past_the_end_is_refused_before_or_at_the_member_read()
    {
        var cards = _db.Parcels.Project(p => new ParcelCard(p.Label, p.Price));
        var notes = _db.Parcels.Project(p => new ParcelNotes(p.Note, p.Weight, p.Destination!.City, p.Destination.Zip));
        var document = Reordered("label", 2m, "Pisa");

        // The unmapped Int64 becomes a string whose length prefix claims 200 bytes: the walk to
        // Label has to step over it.
        // Length prefix, then Price's header and 16 bytes.
        const int unmapped = 4 + 3 + 16;
        Assert.Equal((byte)BsonType.Int64, document[unmapped]);
        var skipped = (byte[])document.Clone();
        skipped[unmapped] = (byte)BsonType.String;
        BitConverter.TryWriteBytes(skipped.AsSpan(unmapped + 3), 200);

        // Label's own length prefix claims more than is left.
        var label = (byte[])document.Clone();
        var labelValue = document.Length - 1 - (4 + "label".Length + 1);
        BitConverter.TryWriteBytes(label.AsSpan(labelValue), 100);

        Assert.Throws<BsonFormatException>(() => cards.Project(skipped));
        Assert.Throws<BsonFormatException>(() => notes.Project(skipped));
        Assert.Throws<BsonFormatException>(() => cards.Project(label));
        Assert.Equal(new ParcelCard("label", 2m), cards.Project(document));
    }
}
