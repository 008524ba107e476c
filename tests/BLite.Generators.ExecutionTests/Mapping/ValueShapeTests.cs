using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class ValueShapeTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Nullable_values_and_enums_round_trip_when_set()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        RoundTrip.AssertRoundTrips(mapper, new OptionalValues
        {
            Id = 1,
            MaybeCount = -7,
            MaybeWhen = new DateTime(2020, 2, 2, 2, 2, 2, DateTimeKind.Local),
            MaybeGuid = Guid.NewGuid(),
            MaybePrice = 0.01m,
            MaybeText = "",
            MaybeAddress = new Address { City = "Ghent" },
            Priority = Priority.High,
            MaybePriority = Priority.Low,
            Tiny = Tiny.Max,
            Huge = Huge.Big,
            Unsigned = Unsigned.Top,
            Permissions = Permissions.Read | Permissions.Admin,
        });
    }

    [Fact]
    public void Nullable_values_round_trip_when_null()
    {
        var mapper = new OptionalValuesDocumentMapper(_dictionary);
        RoundTrip.AssertRoundTrips(mapper, new OptionalValues { Id = 2 });
    }

    [Fact]
    public void Every_collection_shape_round_trips()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        var document = new Collections
        {
            Id = 3,
            Numbers = [1, -2, int.MaxValue],
            Words = ["a", null, ""],
            Addresses = [new Address { Street = "x", City = "y", Country = new Country { Code = "PT" } }, new Address()],
            Readings = new List<double> { 0.5, double.NaN, double.NegativeInfinity },
            Labels = ["first", "second"],
            Keys = new List<Guid> { Guid.NewGuid(), Guid.Empty },
            Sequence = new List<long> { long.MaxValue, 0 },
            Priorities = new List<Priority> { Priority.High, Priority.Normal },
            Tags = ["vip", "eco"],
            Lucky = new HashSet<int> { 7, 13 },
            Sparse = [1, null, 3],
            Grid = [[1, 2], [], [3]],
            Jagged = [[9], [8, 7]],
            Route = [new GeoPoint { Latitude = 1, Longitude = 2 }],
            Counts = new Dictionary<string, int> { ["apples"] = 3, ["Apples"] = 4, [""] = 0 },
            AddressBook = new Dictionary<string, Address> { ["home"] = new Address { City = "Leeds" } },
            Aliases = new Dictionary<string, List<string>> { ["ada"] = ["countess", "enchantress"] },
            Notes = new Dictionary<string, string?> { ["empty"] = null },
            Blob = [1, 2, 3],
            MaybeBlob = null,
            Chunks = [[], [255]],
            Missing = null,
        };

        var copy = RoundTrip.AssertRoundTrips(mapper, document);

        Assert.IsType<HashSet<int>>(copy.Lucky);
    }

    [Fact]
    public void Empty_collections_round_trip()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        RoundTrip.AssertRoundTrips(mapper, new Collections { Missing = [] });
    }

    [Fact]
    public void Dictionary_keys_are_case_sensitive_field_names()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        RoundTrip.ToBytes(mapper, new Collections { Counts = new Dictionary<string, int> { ["Key"] = 1, ["key"] = 2 } });

        Assert.True(_dictionary.TryGetId("Key", out var upper));
        Assert.True(_dictionary.TryGetId("key", out var lower));
        Assert.NotEqual(upper, lower);
    }
}
