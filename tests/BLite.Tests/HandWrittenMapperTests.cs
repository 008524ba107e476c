using System.Diagnostics.CodeAnalysis;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Tests.Model;

namespace BLite.Tests;

/// <summary>
/// The engine skips its validation walk only for bytes written by a BLite-generated mapper; a
/// mapper written by hand gets the same checks as raw bytes.
/// </summary>
public sealed class HandWrittenMapperTests : IDisposable
{
    private readonly HandMappedContext _db = new(DocumentDbContextOptions.ForMemory());

    public void Dispose() => _db.Dispose();

    [Fact]
    public void Malformed_output_of_a_hand_written_mapper_is_refused_and_nothing_is_stored()
    {
        var notes = _db.Notes(new MalformedNoteMapper());

        Assert.Throws<BsonFormatException>(() => notes.Insert(new Note { Id = ObjectId.NewObjectId(), Text = "hello" }));

        Assert.Equal(0, notes.Count());
    }

    [Fact]
    public void Malformed_output_of_a_hand_written_mapper_is_refused_by_update_and_upsert()
    {
        var id = ObjectId.NewObjectId();
        _db.Notes(new WellFormedNoteMapper()).Insert(new Note { Id = id, Text = "kept" });
        var notes = _db.Notes(new MalformedNoteMapper());

        Assert.Throws<BsonFormatException>(() => notes.Update(new Note { Id = id, Text = "changed" }));
        Assert.Throws<BsonFormatException>(() => notes.Upsert(new Note { Id = id, Text = "changed" }));

        Assert.Equal("kept", _db.Notes(new WellFormedNoteMapper()).FindById(id)!.Text);
    }

    [Fact]
    public void Only_generated_mappers_carry_the_marker_that_skips_validation()
    {
        Assert.IsAssignableFrom<IGeneratedDocumentMapper>(_db.Orders.Mapper);
        Assert.False(_db.Notes(new WellFormedNoteMapper()).Mapper is IGeneratedDocumentMapper);
    }

    [Fact]
    public void A_generated_mapper_still_gets_duplicate_ids_refused()
    {
        var order = Orders.Create(1);
        _db.Orders.Insert(order);

        Assert.Throws<BLiteUniqueConstraintException>(() => _db.Orders.Insert(order));
        Assert.Equal(1, _db.Orders.Count());
    }

    public sealed class Note
    {
        public ObjectId Id { get; set; }

        public string Text { get; set; } = "";
    }

    /// <summary>Writes a string where its header announces an Int32: the bytes no longer parse.</summary>
    private sealed class MalformedNoteMapper : WellFormedNoteMapper
    {
        public override void Serialize(Note document, ref BsonSpanWriter writer)
        {
            var token = writer.BeginDocument();
            writer.WriteFieldHeader(BsonType.ObjectId, 0);
            writer.WriteObjectId(document.Id);
            writer.WriteFieldHeader(BsonType.Int32, 1);
            writer.WriteString(document.Text);
            writer.EndDocument(token);
        }
    }

    private class WellFormedNoteMapper : IDocumentMapper<ObjectId, Note>
    {
        public string CollectionName => "notes";

        public IReadOnlyList<MappedField> Fields => [];

        public virtual void Serialize(Note document, ref BsonSpanWriter writer)
        {
            var token = writer.BeginDocument();
            writer.WriteFieldHeader(BsonType.ObjectId, 0);
            writer.WriteObjectId(document.Id);
            writer.WriteFieldHeader(BsonType.String, 1);
            writer.WriteString(document.Text);
            writer.EndDocument(token);
        }

        public Note Deserialize(ref BsonSpanReader reader)
        {
            var note = new Note();
            reader.ReadDocumentStart();
            while (reader.TryReadFieldHeader(out var type, out var field))
            {
                if (field == 0)
                {
                    note.Id = reader.ReadObjectId();
                }
                else if (field == 1 && type == BsonType.String)
                {
                    note.Text = reader.ReadString();
                }
                else
                {
                    reader.SkipValue(type);
                }
            }

            return note;
        }

        public ObjectId GetId(Note document) => document.Id;

        public void SetId(Note document, ObjectId id) => document.Id = id;

        public bool TryGetField(string memberPath, [NotNullWhen(true)] out MappedField? field)
        {
            field = null;
            return false;
        }

        public bool TryReadField(ReadOnlySpan<byte> document, string memberPath, out BsonValue value)
        {
            value = default;
            return false;
        }
    }
}

public partial class HandMappedContext : DocumentDbContext
{
    public HandMappedContext(DocumentDbContextOptions options)
        : base(options)
    {
    }

    public DocumentCollection<ObjectId, CustomerOrder> Orders { get; set; } = null!;

    /// <summary>A collection over a mapper written by hand (field 1 is registered so both mappers agree).</summary>
    public DocumentCollection<ObjectId, HandWrittenMapperTests.Note> Notes(IDocumentMapper<ObjectId, HandWrittenMapperTests.Note> mapper)
    {
        FieldDictionary.GetOrAdd("_id");
        FieldDictionary.GetOrAdd("text");
        return CreateCollection("notes", mapper);
    }
}
