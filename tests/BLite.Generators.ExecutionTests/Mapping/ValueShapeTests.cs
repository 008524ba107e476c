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

    [Theory]
    [InlineData(1)]
    [InlineData(8)]
    [InlineData(9)]
    [InlineData(33)]
    [InlineData(1000)]
    public void Collections_longer_than_the_stack_buffer_round_trip_whole_and_in_order(int count)
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        string[] texts = ["Kraków", "日本語", "emoji 🎉", "plain", "", "Ωmega"];
        var document = new Collections
        {
            Id = 4,
            Numbers = Enumerable.Range(-count / 2, count).ToArray(),
            Words = Enumerable.Range(0, count).Select(i => i % 7 == 3 ? null : texts[i % texts.Length] + i).ToArray(),
            Addresses = Enumerable.Range(0, count).Select(i => new Address { Street = "Rua " + i, City = texts[i % texts.Length] }).ToList(),
            Tags = Enumerable.Range(0, count).Select(i => "tag" + (i % 50)).ToHashSet(),
            Lucky = Enumerable.Range(0, count).ToHashSet(),
            Sparse = Enumerable.Range(0, count).Select(i => i % 3 == 0 ? (int?)null : i).ToList(),
            Grid = Enumerable.Range(0, 3).Select(row => Enumerable.Range(0, count).Select(i => i * row).ToList()).ToList(),
            Jagged = [Enumerable.Range(0, count).ToArray(), []],
        };

        var copy = RoundTrip.AssertRoundTrips(mapper, document);

        Assert.Equal(count, copy.Numbers.Length);
        Assert.Equal(count, copy.Addresses.Count);
        Assert.Equal(count, copy.Addresses.Capacity);
        Assert.Equal(document.Words, copy.Words);
    }

    [Fact]
    public void An_array_ending_before_its_length_prefix_says_is_refused()
    {
        var bytes = NumbersDocument(out var items);
        // The second item's type code becomes the terminator: the array now ends early.
        bytes[items + 5] = 0x00;

        AssertRefused(bytes);
    }

    [Fact]
    public void An_array_claiming_more_bytes_than_its_document_holds_is_refused()
    {
        var bytes = NumbersDocument(out var items);
        BitConverter.TryWriteBytes(bytes.AsSpan(items - 4), bytes.Length);

        AssertRefused(bytes);
    }

    [Fact]
    public void An_array_item_with_an_unknown_type_code_is_refused()
    {
        var bytes = NumbersDocument(out var items);
        bytes[items + 5] = 0x7E;

        AssertRefused(bytes);
    }

    [Fact]
    public void An_array_string_item_that_is_not_utf8_is_refused()
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Collections { Words = ["ok", "bad!"] });
        var text = bytes.AsSpan().IndexOf("bad!"u8);
        bytes[text + 3] = 0xC3;

        AssertRefused(bytes);
    }

    /// <summary>A document whose Numbers array is [1, 2, 3]; <paramref name="items"/> is the offset of its first item.</summary>
    private byte[] NumbersDocument(out int items)
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Collections { Numbers = [1, 2, 3] });
        items = bytes.AsSpan().IndexOf(new byte[] { 0x10, 1, 0, 0, 0, 0x10, 2, 0, 0, 0 });
        Assert.True(items > 4);
        return bytes;
    }

    private void AssertRefused(byte[] bytes)
    {
        var mapper = new CollectionsDocumentMapper(_dictionary);
        var error = Assert.Throws<BsonFormatException>(() => RoundTrip.FromBytes(mapper, bytes));
        Assert.True(error.Offset > 0);
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
