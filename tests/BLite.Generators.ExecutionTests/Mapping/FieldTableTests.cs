using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class FieldTableTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Nested_member_paths_resolve_to_field_id_paths()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);

        Assert.True(mapper.TryGetField("Home.Country.Code", out var field));

        Assert.Equal("Home.Country.Code", field.FieldPath);
        Assert.Equal(BsonType.String, field.BsonType);
        Assert.False(field.IsMultiValued);
        Assert.True(_dictionary.TryGetId("Home", out var home));
        Assert.True(_dictionary.TryGetId("Country", out var country));
        Assert.True(_dictionary.TryGetId("Code", out var code));
        Assert.Equal(new[] { home, country, code }, field.FieldIds.ToArray());
    }

    [Fact]
    public void A_field_is_located_in_raw_bytes_without_deserializing()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Customer
        {
            Name = "Frances",
            Home = new Address { City = "Porto", Country = new Country { Code = "PT" } },
        });
        Assert.True(mapper.TryGetField("Home.Country.Code", out var field));

        Assert.True(field.TryLocate(bytes, out var type, out var value));

        Assert.Equal(BsonType.String, type);
        var reader = new BsonSpanReader(value);
        Assert.Equal("PT", reader.ReadString());
    }

    [Fact]
    public void A_field_under_a_null_document_is_not_found()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Customer { Home = null });
        Assert.True(mapper.TryGetField("Home.City", out var field));

        Assert.False(field.TryLocate(bytes, out _, out _));
    }

    [Fact]
    public void Paths_through_collections_are_multi_valued()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);

        Assert.True(mapper.TryGetField("Addresses.Country.Code", out var field));

        Assert.True(field.IsMultiValued);
        Assert.Equal(0, field.ArraySegment);
        Assert.True(mapper.TryGetField("Numbers", out var numbers));
        Assert.Equal(BsonType.Array, numbers.BsonType);
        Assert.Equal(BsonType.Int32, numbers.ElementType);
    }

    [Fact]
    public void Recursive_types_list_each_path_once_and_unknown_paths_are_misses()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);

        Assert.True(mapper.TryGetField("Children", out _));
        Assert.False(mapper.TryGetField("Children.Children", out _));
        Assert.False(mapper.TryGetField("Nope", out _));
        Assert.Equal(3, mapper.Fields.Count);
    }

    [Fact]
    public void TryReadField_returns_the_value_of_a_nested_field_as_a_BsonValue()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);
        var id = ObjectId.NewObjectId();
        var bytes = RoundTrip.ToBytes(mapper, new Customer
        {
            Id = id,
            Location = new GeoPoint { Latitude = 41.15, Longitude = -8.61 },
            Home = new Address { City = "Porto" },
        });

        Assert.True(mapper.TryReadField(bytes, "Home.City", out var city));
        Assert.True(mapper.TryReadField(bytes, "Location.Longitude", out var longitude));
        Assert.True(mapper.TryReadField(bytes, "Id", out var storedId));
        Assert.False(mapper.TryReadField(bytes, "Home.Nowhere", out _));

        Assert.Equal("Porto", city.AsString);
        Assert.Equal(-8.61, longitude.AsDouble);
        Assert.Equal((BsonValue)id, storedId);
    }

    [Fact]
    public void TryReadField_reads_a_stored_null_as_a_null_value()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new OptionalValues { Id = 1, MaybeText = null });

        Assert.True(mapper.TryReadField(bytes, "MaybeText", out var text));

        Assert.True(text.IsNull);
    }
}
