using BLite.Bson.Interop;
using BLite.Bson.Tests.Documents;

namespace BLite.Bson.Tests.Interop;

/// <summary>Documents survive BLite → standard BSON → BLite, exactly for standard types and as documented for the rest.</summary>
public class StandardBsonRoundTripTests
{
    [Fact]
    public void Standard_types_round_trip_exactly()
    {
        var document = new BsonDocument
        {
            { "_id", ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e") },
            { "double", -0.0 },
            { "nan", double.NaN },
            { "string", "héllo 😀 \0 inside" },
            { "nested", new BsonDocument { { "a", new BsonArray { 1, new BsonArray(), BsonValue.Null } } } },
            { "binary", new byte[] { 0, 255 } },
            { "user", BsonValue.FromBinary(new byte[] { 7 }, BsonBinarySubtype.UserDefined) },
            { "old", BsonValue.FromBinary(new byte[] { 1, 2, 3 }, BsonBinarySubtype.OldBinary) },
            { "guid", Guid.Parse("00112233-4455-6677-8899-aabbccddeeff") },
            { "bool", true },
            { "int32", int.MinValue },
            { "int64", long.MaxValue },
            { "decimal", 1.50m },
            { "decimalMin", decimal.MinValue },
            { "date", new DateTime(2024, 2, 29, 23, 59, 59, 999, DateTimeKind.Utc) },
            { "minDate", DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Utc) },
            { "Case", 1 },
            { "case", 2 },
        };

        var read = StandardBsonReader.ReadDocument(StandardBsonWriter.ToBytes(document));

        Assert.True(SampleDocuments.DeepEqualsExact(document, read), read.ToJson());
    }

    [Fact]
    public void Every_blite_type_is_written_and_reads_back_in_its_mapped_form()
    {
        var document = SampleDocuments.EveryType();

        var read = StandardBsonReader.ReadDocument(StandardBsonWriter.ToBytes(document));

        Assert.Equal(document.Names, read.Names);
        Assert.Equal(BsonType.DateTime, read["offset"].Type);
        Assert.Equal(BsonType.Int64, read["timeSpan"].Type);
        Assert.Equal(BsonType.Decimal128, read["uint64Max"].Type);
        Assert.Equal(document["decimal"], read["decimal"]);
        Assert.Equal(document["guid"], read["guid"]);

        // The mapped form is stable: writing it again gives the same bytes.
        Assert.Equal(StandardBsonWriter.ToBytes(read), StandardBsonWriter.ToBytes(StandardBsonReader.ReadDocument(StandardBsonWriter.ToBytes(read))));
    }

    [Fact]
    public void Many_documents_round_trip_through_a_stream()
    {
        var documents = Enumerable.Range(0, 50).Select(i => new BsonDocument
        {
            { "_id", i },
            { "name", "item " + i },
            { "tags", new BsonArray(Enumerable.Range(0, i % 5).Select(t => (BsonValue)("t" + t))) },
        }).ToList();
        var stream = new MemoryStream();
        foreach (var document in documents)
        {
            StandardBsonWriter.WriteTo(document, stream);
        }

        stream.Position = 0;
        var read = StandardBsonReader.ReadDocuments(stream).ToList();

        Assert.Equal(documents, read);
    }

    [Fact]
    public void Buffer_writer_output_equals_the_byte_array()
    {
        var document = SampleDocuments.Order(5);
        var output = new System.Buffers.ArrayBufferWriter<byte>();

        StandardBsonWriter.WriteTo(document, output);

        Assert.Equal(StandardBsonWriter.ToBytes(document), output.WrittenSpan.ToArray());
    }
}
