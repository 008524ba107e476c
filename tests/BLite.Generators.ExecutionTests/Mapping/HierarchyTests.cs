using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class HierarchyTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Inherited_members_including_private_setters_of_the_base_round_trip()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);
        var customer = new Customer
        {
            Id = ObjectId.NewObjectId(),
            Name = "Barbara",
            Home = new Address { Street = "1 Main St", City = "Turin", Country = new Country { Code = "IT", Name = "Italy" } },
            Location = new GeoPoint { Latitude = 45.07, Longitude = 7.69 },
            LastSeen = new GeoPoint { Latitude = -1, Longitude = 1 },
            Meter = new Reading(1234),
        };
        customer.Stamp(new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc), version: 3);

        var copy = RoundTrip.AssertRoundTrips(mapper, customer);

        Assert.Equal(3, copy.Version);
        Assert.Equal(1234, copy.Meter.Raw);
    }

    [Fact]
    public void Null_nested_class_and_null_nullable_struct_round_trip()
    {
        var mapper = new CustomerDocumentMapper(_dictionary);
        RoundTrip.AssertRoundTrips(mapper, new Customer { Name = "Edsger", Home = null, LastSeen = null });
    }

    [Fact]
    public void A_tree_of_categories_round_trips()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);
        var root = new Category { Id = 1, Name = "All" };
        var electronics = new Category { Id = 2, Name = "Electronics" };
        electronics.Children.Add(new Category { Id = 3, Name = "Keyboards" });
        electronics.Children.Add(new Category { Id = 4, Name = "Monitors", Children = [new Category { Id = 5, Name = "4K" }] });
        root.Children.Add(electronics);
        root.Children.Add(new Category { Id = 6, Name = "Books" });

        RoundTrip.AssertRoundTrips(mapper, root);
    }

    [Fact]
    public void A_category_that_contains_itself_is_refused_with_a_cycle_message()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);
        var looping = new Category { Id = 1, Name = "Loop" };
        looping.Children.Add(new Category { Id = 2, Name = "Child", Children = [looping] });

        var error = Assert.Throws<BsonMappingException>(() => RoundTrip.ToBytes(mapper, looping));

        Assert.Contains("cycle", error.Message, StringComparison.Ordinal);
        Assert.Contains("Category", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_tree_deeper_than_the_depth_limit_is_refused_and_one_just_below_it_round_trips()
    {
        var mapper = new CategoryDocumentMapper(_dictionary);

        // Each level is a document plus the Children array: 2 nesting levels per category.
        var fits = Chain(BsonLimits.MaxDepth / 2);
        RoundTrip.AssertRoundTrips(mapper, fits);

        var tooDeep = Chain((BsonLimits.MaxDepth / 2) + 1);
        Assert.Throws<BsonMappingException>(() => RoundTrip.ToBytes(mapper, tooDeep));
    }

    private static Category Chain(int levels)
    {
        var root = new Category { Id = 0, Name = "0" };
        var current = root;
        for (var i = 1; i < levels; i++)
        {
            var child = new Category { Id = i, Name = i.ToString(System.Globalization.CultureInfo.InvariantCulture) };
            current.Children.Add(child);
            current = child;
        }

        return root;
    }
}
