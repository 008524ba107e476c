namespace BLite.Bson.Tests.Documents;

public class BsonDocumentSerializationTests
{
    [Fact]
    public void Every_type_round_trips_exactly_through_bytes()
    {
        var dictionary = new BsonFieldDictionary();
        var original = SampleDocuments.EveryType();
        var bytes = original.ToBytes(dictionary);
        var read = BsonDocument.FromBytes(bytes, dictionary);
        Assert.Equal(original, read);
        Assert.True(SampleDocuments.DeepEqualsExact(original, read));
        Assert.Equal(bytes, read.ToBytes(dictionary));
    }

    [Fact]
    public void Field_names_go_through_the_dictionary_and_id_is_field_zero()
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "name", "x" }, { "_id", 7 } }.ToBytes(dictionary);
        Assert.True(dictionary.TryGetId("name", out var nameId));
        Assert.Equal((ushort)1, nameId);

        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out _, out var first));
        Assert.Equal((ushort)1, first);
        reader.SkipValue(BsonType.String);
        Assert.True(reader.TryReadFieldHeader(out _, out var second));
        Assert.Equal((ushort)0, second);
    }

    [Fact]
    public void Guid_read_from_bytes_is_the_same_guid()
    {
        var dictionary = new BsonFieldDictionary();
        var guid = Guid.NewGuid();
        var read = BsonDocument.FromBytes(new BsonDocument { { "g", guid } }.ToBytes(dictionary), dictionary);
        Assert.Equal(guid, read["g"].AsGuid);
        Assert.Equal(BsonBinarySubtype.Uuid, read["g"].BinarySubtype);
    }

    [Fact]
    public void Unknown_field_id_is_a_format_error()
    {
        var writerDictionary = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "a", 1 }, { "b", 2 } }.ToBytes(writerDictionary);
        var readerDictionary = BsonFieldDictionary.FromNames(["_id", "a"]);
        var error = Assert.Throws<BsonFormatException>(() => BsonDocument.FromBytes(bytes, readerDictionary));
        Assert.Contains("Field id 2", error.Message);
        Assert.Equal(4 + 3 + 4, error.Offset);
    }

    [Fact]
    public void Duplicate_field_is_a_format_error()
    {
        var dictionary = BsonFieldDictionary.FromNames(["_id", "a"]);
        byte[] bytes = [19, 0, 0, 0, 0x10, 1, 0, 1, 0, 0, 0, 0x10, 1, 0, 2, 0, 0, 0, 0];
        Assert.Contains("twice", Assert.Throws<BsonFormatException>(() => BsonDocument.FromBytes(bytes, dictionary)).Message);
    }

    [Fact]
    public void Trailing_bytes_after_the_document_are_a_format_error()
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "a", 1 } }.ToBytes(dictionary).Append((byte)0).ToArray();
        Assert.Equal(bytes.Length - 1, Assert.Throws<BsonFormatException>(() => BsonDocument.FromBytes(bytes, dictionary)).Offset);
    }

    [Fact]
    public void Document_nested_to_the_limit_round_trips_and_deeper_is_refused_by_the_writer()
    {
        var dictionary = new BsonFieldDictionary();
        var root = new BsonDocument();
        var current = root;
        for (var depth = 1; depth < BsonLimits.MaxDepth; depth++)
        {
            var child = new BsonDocument();
            current.Add("d", child);
            current = child;
        }

        var read = BsonDocument.FromBytes(root.ToBytes(dictionary), dictionary);
        Assert.Equal(root, read);

        current.Add("d", new BsonArray());
        Assert.Throws<InvalidOperationException>(() => root.ToBytes(dictionary));
    }

    [Fact]
    public void Reading_a_document_field_from_a_span_reader_leaves_the_reader_after_it()
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "inner", new BsonDocument { { "x", 1 } } }, { "after", "yes" } }.ToBytes(dictionary);
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        reader.TryReadFieldHeader(out var type, out _);
        var inner = BsonValue.ReadFrom(ref reader, type, dictionary);
        Assert.Equal(1, inner.AsDocument["x"].AsInt32);
        reader.TryReadFieldHeader(out type, out _);
        Assert.Equal("yes", reader.ReadString());
    }

    [Fact]
    public void TryFindField_positions_on_the_value_or_leaves_the_document()
    {
        var dictionary = new BsonFieldDictionary();
        var bytes = new BsonDocument { { "a", new BsonArray { 1, 2 } }, { "b", "x" }, { "c", 3 } }.ToBytes(dictionary);
        dictionary.TryGetId("c", out var c);
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        Assert.True(reader.TryFindField(c, out var type));
        Assert.Equal(BsonType.Int32, type);
        Assert.Equal(3, reader.ReadInt32());

        var missing = new BsonSpanReader(bytes);
        missing.ReadDocumentStart();
        Assert.False(missing.TryFindField(dictionary.GetOrAdd("absent"), out _));
        Assert.Equal(bytes.Length, missing.Position);
        Assert.Equal(0, missing.Depth);
    }
}
