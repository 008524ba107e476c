using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class ConstructionTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Init_and_required_members_round_trip()
    {
        var mapper = new AccountDocumentMapper(_dictionary);
        RoundTrip.AssertRoundTrips(mapper, new Account { Id = Guid.NewGuid(), Owner = "Ada", Balance = -12.5m, Note = null });
    }

    [Fact]
    public void An_init_only_id_can_still_be_assigned_by_the_mapper()
    {
        var mapper = new AccountDocumentMapper(_dictionary);
        var account = new Account { Id = Guid.Empty, Owner = "Grace" };
        var id = Guid.NewGuid();

        mapper.SetId(account, id);

        Assert.Equal(id, account.Id);
        Assert.Equal(id, mapper.GetId(account));
    }

    [Fact]
    public void Positional_records_and_record_structs_round_trip()
    {
        var mapper = new BookDocumentMapper(_dictionary);
        var book = new Book(ObjectId.NewObjectId(), "The Art of Computer Programming", 672, new Dimensions(16.5, 24.1), new Money(189.99m, "EUR"));

        var copy = RoundTrip.AssertRoundTrips(mapper, book);

        Assert.Equal(book, copy);
        Assert.Equal("books", mapper.CollectionName);
    }

    [Fact]
    public void Get_only_properties_bind_to_constructor_parameters()
    {
        var mapper = new MeasurementDocumentMapper(_dictionary);
        var measurement = new Measurement(42, "north-wall", -3.25, new DateTimeOffset(2025, 1, 2, 3, 4, 5, TimeSpan.FromHours(5.5))) { Comment = "frost" };

        RoundTrip.AssertRoundTrips(mapper, measurement);
    }

    [Fact]
    public void A_get_only_id_is_set_through_its_backing_field()
    {
        var mapper = new MeasurementDocumentMapper(_dictionary);
        var measurement = new Measurement(1, "s", 0, DateTimeOffset.UnixEpoch);

        mapper.SetId(measurement, 99);

        Assert.Equal(99, measurement.Id);
    }

    [Fact]
    public void Private_setters_and_private_fields_round_trip()
    {
        var mapper = new VaultDocumentMapper(_dictionary);
        var vault = new Vault("Linus", openings: 7, secret: "hunter2");
        vault.AssignId(5);

        var copy = RoundTrip.AssertRoundTrips(mapper, vault);

        Assert.Equal(7, copy.Openings);
        Assert.Equal("hunter2", copy.RevealSecret());
        Assert.Equal("Linus's vault", copy.Label);
        Assert.Equal(5, copy.Id);
    }

    [Fact]
    public void A_private_id_setter_is_reached_by_SetId()
    {
        var mapper = new VaultDocumentMapper(_dictionary);
        var vault = new Vault();

        mapper.SetId(vault, 12);

        Assert.Equal(12, vault.Id);
    }

    [Fact]
    public void A_private_member_renamed_with_BsonField_is_stored_under_that_name()
    {
        var mapper = new VaultDocumentMapper(_dictionary);

        Assert.True(mapper.TryGetField("Secret", out var field));
        Assert.Equal("secret", field.FieldPath);
        Assert.True(mapper.TryGetField("_openings", out _));
    }
}
