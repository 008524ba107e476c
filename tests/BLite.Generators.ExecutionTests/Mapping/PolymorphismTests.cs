using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class PolymorphismTests
{
    private readonly BsonFieldDictionary _dictionary = new();

    [Fact]
    public void Derived_types_round_trip_through_their_base_type()
    {
        var mapper = new ShelterDocumentMapper(_dictionary);
        var shelter = new Shelter
        {
            Id = "north",
            Mascot = new Puppy { Name = "Rex", GoodBoy = true, AgeInWeeks = 9 },
            Residents = [new Dog { Name = "Fido", GoodBoy = false }, new Cat { Name = "Tom", Lives = 9 }, new Puppy { Name = "Bit", AgeInWeeks = 3 }],
        };

        var copy = RoundTrip.AssertRoundTrips(mapper, shelter);

        Assert.IsType<Puppy>(copy.Mascot);
        Assert.IsType<Dog>(copy.Residents[0]);
        Assert.IsType<Cat>(copy.Residents[1]);
    }

    [Fact]
    public void The_discriminator_is_stored_as_the_t_field()
    {
        var mapper = new ShelterDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Shelter { Id = "s", Mascot = new Cat { Name = "Kit", Lives = 3 } });

        Assert.True(_dictionary.TryGetId("_t", out _));
        Assert.True(bytes.AsSpan().IndexOf("cat"u8) > 0);
    }

    [Fact]
    public void An_undeclared_derived_type_is_refused_instead_of_losing_its_members()
    {
        var mapper = new ShelterDocumentMapper(_dictionary);
        var shelter = new Shelter { Id = "s", Mascot = new Hamster { Name = "Ham" } };

        var error = Assert.Throws<BsonMappingException>(() => RoundTrip.ToBytes(mapper, shelter));

        Assert.Contains(nameof(Hamster), error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_unknown_discriminator_is_refused_when_reading()
    {
        var mapper = new ShelterDocumentMapper(_dictionary);
        var bytes = RoundTrip.ToBytes(mapper, new Shelter { Id = "s", Mascot = new Cat { Name = "Kit" } });
        var index = bytes.AsSpan().IndexOf("cat"u8);
        "cow"u8.CopyTo(bytes.AsSpan(index));

        var error = Assert.Throws<BsonMappingException>(() => RoundTrip.FromBytes(mapper, bytes));

        Assert.Contains("cow", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_polymorphic_document_type_reads_base_and_derived_documents()
    {
        var mapper = new ShipmentDocumentMapper(_dictionary);

        RoundTrip.AssertRoundTrips<Guid, Shipment>(mapper, new Shipment { Id = Guid.NewGuid(), Destination = "Oslo" });
        var express = RoundTrip.AssertRoundTrips<Guid, Shipment>(mapper, new ExpressShipment { Id = Guid.NewGuid(), Destination = "Lyon", Promise = TimeSpan.FromHours(12) });
        Assert.IsType<ExpressShipment>(express);
    }

    private sealed class Hamster : Animal
    {
    }
}
