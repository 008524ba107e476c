using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

/// <summary>
/// Members whose initializer makes a new, empty list, set or object are filled in place on read;
/// any other initializer (items, values, a shared instance, a constructor that changes it) is
/// replaced by exactly what the document stores.
/// </summary>
public sealed class InitializerFillTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Fresh_initializers_round_trip_with_items_empty_and_null()
    {
        var mapper = new FreshInitializersDocumentMapper(_dictionary);
        var full = new FreshInitializers
        {
            Id = 1,
            Tags = ["a", "b"],
            Stops = [new CountedPlace { City = "Bergen", Streets = ["Bryggen"] }, new CountedPlace()],
            Lucky = [7, 13],
            Home = new CountedPlace { City = "Oslo", Country = "NO" },
            Work = new CountedPlace { City = "Turku", Country = "FI" },
            Optional = ["x"],
            Counts = new() { ["a"] = 1, ["b"] = 2 },
        };
        var empty = new FreshInitializers { Id = 2, Tags = [], Stops = [], Lucky = [], Optional = [], Counts = [] };
        var nulls = new FreshInitializers { Id = 3, Tags = null!, Stops = null!, Lucky = null!, Home = null!, Work = null!, Optional = null, Counts = null! };

        RoundTrip.AssertRoundTrips(mapper, full);
        var emptyCopy = RoundTrip.AssertRoundTrips(mapper, empty);
        var nullCopy = RoundTrip.AssertRoundTrips(mapper, nulls);

        Assert.NotNull(emptyCopy.Tags);
        Assert.Empty(emptyCopy.Tags);
        Assert.Empty(emptyCopy.Lucky);
        Assert.Empty(emptyCopy.Counts);
        Assert.Null(nullCopy.Counts);
        Assert.Null(nullCopy.Tags);
        Assert.Null(nullCopy.Stops);
        Assert.Null(nullCopy.Lucky);
        Assert.Null(nullCopy.Home);
        Assert.Null(nullCopy.Work);
        Assert.Null(nullCopy.Optional);
    }

    [Fact]
    public void A_nested_object_made_by_an_initializer_is_filled_not_replaced()
    {
        var mapper = new FreshInitializersDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new FreshInitializers
        {
            Id = 4,
            Home = new CountedPlace { City = "Oslo" },
            Work = new CountedPlace { City = "Turku" },
        });
        CountedPlace.TakeConstructed();

        var copy = RoundTrip.FromBytes(mapper, bytes);

        // The two the initializers make, and no others: the reader filled them.
        Assert.Equal(2, CountedPlace.TakeConstructed());
        Assert.Equal("Oslo", copy.Home.City);
        Assert.Equal("Turku", copy.Work.City);
        Assert.Equal("unknown", copy.Home.Country);
    }

    [Fact]
    public void Members_missing_from_the_document_keep_the_initializer_instances()
    {
        var mapper = new FreshInitializersDocumentMapper(_dictionary);
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            writer.WriteFieldHeader(BsonType.Int32, _dictionary.GetOrAdd("_id"));
            writer.WriteInt32(5);
        });

        var copy = RoundTrip.FromBytes(mapper, bytes);

        Assert.Empty(copy.Tags);
        Assert.Empty(copy.Stops);
        Assert.Empty(copy.Lucky);
        Assert.Equal("", copy.Home.City);
        Assert.NotNull(copy.Optional);
    }

    [Fact]
    public void A_repeated_field_replaces_the_first_as_it_would_without_the_fill()
    {
        var mapper = new FreshInitializersDocumentMapper(_dictionary);
        var tags = _dictionary.GetOrAdd("Tags");
        var home = _dictionary.GetOrAdd("Home");
        var city = _dictionary.GetOrAdd("City");
        var country = _dictionary.GetOrAdd("Country");
        var bytes = RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            WriteArrayOfOne(ref writer, tags, "first");
            WriteArrayOfOne(ref writer, tags, "second");
            WriteDocumentOfOne(ref writer, home, country, "SE");
            WriteDocumentOfOne(ref writer, home, city, "Malmö");
        });

        var copy = RoundTrip.FromBytes(mapper, bytes);

        Assert.Equal(["second"], copy.Tags);
        Assert.Equal("Malmö", copy.Home.City);
        Assert.Equal("unknown", copy.Home.Country);
    }

    [Fact]
    public void Initializers_with_items_values_or_a_shared_instance_end_with_exactly_the_stored_values()
    {
        var mapper = new PrefilledInitializersDocumentMapper(_dictionary);
        var stored = new PrefilledInitializers
        {
            Id = 6,
            Defaults = ["stored"],
            Seeds = [3],
            SharedTags = ["mine"],
            Home = new CountedPlace { Country = "DK" },
            Copied = ["copied"],
            Seeded = new() { ["stored"] = 2 },
        };

        var copy = RoundTrip.AssertRoundTrips(mapper, stored);
        var empty = RoundTrip.AssertRoundTrips(mapper, new PrefilledInitializers { Id = 7, Defaults = [], Seeds = [], SharedTags = [], Copied = [], Seeded = [] });

        Assert.Equal(["stored"], copy.Defaults);
        Assert.Equal([3], copy.Seeds);
        Assert.Equal(["mine"], copy.SharedTags);
        Assert.Empty(empty.Defaults);
        Assert.Empty(empty.Seeds);
        Assert.Equal(new Dictionary<string, int> { ["stored"] = 2 }, copy.Seeded);
        Assert.Empty(empty.Seeded);
        Assert.NotSame(PrefilledInitializers.Shared, empty.SharedTags);
        Assert.Empty(PrefilledInitializers.Shared);
    }

    [Fact]
    public void An_object_an_initializer_gives_values_is_replaced_not_filled()
    {
        var mapper = new PrefilledInitializersDocumentMapper(_dictionary);
        var bytes = HomeWithCountryOnly("DK");

        var copy = RoundTrip.FromBytes(mapper, bytes);

        // Filled, the initializer's "Oslo" would have stayed.
        Assert.Equal("", copy.Home.City);
        Assert.Equal("DK", copy.Home.Country);
        Assert.Equal(["default"], copy.Defaults);
    }

    [Fact]
    public void Members_a_constructor_changes_are_replaced_by_the_stored_values()
    {
        var mapper = new ConstructorTouchedInitializersDocumentMapper(_dictionary);
        var tags = _dictionary.GetOrAdd("Tags");
        var bytes = HomeWithCountryOnly("IS", (ref BsonSpanWriter writer) => WriteArrayOfOne(ref writer, tags, "stored"));

        var copy = RoundTrip.FromBytes(mapper, bytes);

        Assert.Equal(["stored"], copy.Tags);
        Assert.Equal("", copy.Home.City);
        Assert.Equal("IS", copy.Home.Country);
    }

    /// <summary>A document whose Home holds a Country and no City, after what <paramref name="before"/> writes.</summary>
    private byte[] HomeWithCountryOnly(string country, RoundTrip.WriteFields? before = null)
    {
        var home = _dictionary.GetOrAdd("Home");
        var countryId = _dictionary.GetOrAdd("Country");
        return RoundTrip.Document((ref BsonSpanWriter writer) =>
        {
            before?.Invoke(ref writer);
            WriteDocumentOfOne(ref writer, home, countryId, country);
        });
    }

    private static void WriteArrayOfOne(ref BsonSpanWriter writer, ushort field, string item)
    {
        writer.WriteFieldHeader(BsonType.Array, field);
        var token = writer.BeginArray();
        writer.WriteItemHeader(BsonType.String);
        writer.WriteString(item);
        writer.EndArray(token);
    }

    private static void WriteDocumentOfOne(ref BsonSpanWriter writer, ushort field, ushort innerField, string value)
    {
        writer.WriteFieldHeader(BsonType.Document, field);
        var token = writer.BeginDocument();
        writer.WriteFieldHeader(BsonType.String, innerField);
        writer.WriteString(value);
        writer.EndDocument(token);
    }
}
