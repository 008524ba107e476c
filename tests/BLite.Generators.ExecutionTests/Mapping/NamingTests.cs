using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class NamingTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void BsonId_marks_the_id_which_is_stored_as_underscore_id()
    {
        var mapper = new RenamedDocumentMapper(_dictionary);
        var document = new Renamed { Code = "A-1", Name = "upper", name = "lower", id = 5, Cache = "not stored", @class = "keyword" };

        var copy = RoundTrip.FromBytes(mapper, RoundTrip.ToBytes(mapper, document));

        Assert.Equal("A-1", copy.Code);
        Assert.Equal("A-1", mapper.GetId(document));
        Assert.True(mapper.TryGetField("Code", out var id));
        Assert.Equal("_id", id.FieldPath);
        Assert.Equal(5, copy.id);
        Assert.Equal("keyword", copy.@class);
        Assert.True(_dictionary.TryGetId("class", out _));
    }

    [Fact]
    public void Names_are_case_sensitive_and_BsonField_renames()
    {
        var mapper = new RenamedDocumentMapper(_dictionary);
        var copy = RoundTrip.FromBytes(mapper, RoundTrip.ToBytes(mapper, new Renamed { Name = "upper", name = "lower" }));

        Assert.Equal("upper", copy.Name);
        Assert.Equal("lower", copy.name);
        Assert.True(_dictionary.TryGetId("n", out _));
        Assert.True(_dictionary.TryGetId("name", out _));
        Assert.False(_dictionary.TryGetId("Name", out _));
    }

    [Fact]
    public void BsonIgnore_members_are_not_stored()
    {
        var mapper = new RenamedDocumentMapper(_dictionary);
        var copy = RoundTrip.FromBytes(mapper, RoundTrip.ToBytes(mapper, new Renamed { Cache = "transient" }));

        Assert.Equal("", copy.Cache);
        Assert.False(_dictionary.TryGetId("Cache", out _));
        Assert.False(_dictionary.TryGetId("Computed", out _));
    }
}
