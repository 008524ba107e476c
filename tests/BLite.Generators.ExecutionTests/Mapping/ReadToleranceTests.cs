using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class ReadToleranceTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Fields_missing_from_the_document_keep_their_initializer_values()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.Int32, _dictionary.GetOrAdd("_id"));
            writer.WriteInt32(8);
        });

        var copy = RoundTrip.FromBytes(mapper, bytes);

        Assert.Equal(8, copy.Id);
        Assert.NotNull(copy.Tags);
        Assert.Empty(copy.Tags);
    }

    [Fact]
    public void Unknown_fields_are_skipped()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.String, _dictionary.GetOrAdd("Obsolete"));
            writer.WriteString("ignored");
            writer.WriteFieldHeader(BsonType.String, _dictionary.GetOrAdd("Name"));
            writer.WriteString("kept");
        });

        Assert.Equal("kept", RoundTrip.FromBytes(mapper, bytes).Name);
    }

    [Fact]
    public void An_Int32_stored_value_widens_into_a_long_member()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.Int32, _dictionary.GetOrAdd("_id"));
            writer.WriteInt32(-5);
        });

        Assert.Equal(-5L, RoundTrip.FromBytes(mapper, bytes).Id);
    }

    [Fact]
    public void A_stored_value_of_the_wrong_type_names_the_member()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.Boolean, _dictionary.GetOrAdd("Name"));
            writer.WriteBoolean(true);
        });

        var error = Assert.Throws<BsonMappingException>(() => RoundTrip.FromBytes(mapper, bytes));

        Assert.Contains("Category.Name", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_stored_value_out_of_range_for_a_narrow_member_is_refused()
    {
        var mapper = new ScalarDocumentDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.Int32, _dictionary.GetOrAdd("Byte"));
            writer.WriteInt32(256);
        });

        var error = Assert.Throws<BsonMappingException>(() => RoundTrip.FromBytes(mapper, bytes));

        Assert.Contains("ScalarDocument.Byte", error.Message, StringComparison.Ordinal);
    }
}
