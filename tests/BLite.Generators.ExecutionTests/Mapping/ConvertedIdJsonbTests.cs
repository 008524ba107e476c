using System.Text;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

/// <summary>Ids of a type BLite does not store natively: the jsonb form holds the converter's key, as C-BSON does.</summary>
public sealed class ConvertedIdJsonbTests
{
    [Fact]
    public void A_Guid_keyed_id_is_stored_as_its_key_and_round_trips()
    {
        var mapper = new TicketDocumentMapper(new BsonFieldDictionary(), new IdConverter<TicketId, Guid>(id => id.Value, key => new TicketId(key)));
        var ticket = new Ticket { Id = new TicketId(Guid.Parse("00112233-4455-6677-8899-aabbccddeeff")), Title = "t" };

        RoundTrip.AssertRoundTrips(mapper, ticket);
        Assert.Contains("\"_id\":{\"$uuid\":\"00112233-4455-6677-8899-aabbccddeeff\"}", Encoding.UTF8.GetString(RoundTrip.ToJsonb(mapper, ticket)), StringComparison.Ordinal);
    }

    [Fact]
    public void A_string_keyed_id_round_trips_and_a_key_of_another_type_is_refused()
    {
        var mapper = new BadgeDocumentMapper(new BsonFieldDictionary(), new IdConverter<BadgeCode, string>(id => id.Value, key => new BadgeCode(key)));

        RoundTrip.AssertRoundTrips(mapper, new Badge { Id = new BadgeCode("gold"), Level = 3 });
        var error = Assert.Throws<BsonMappingException>(() => mapper.ReadJsonb("""{"_id": {"$long": 5}, "Level": 1}"""u8));
        Assert.Contains("Int64", error.Message, StringComparison.Ordinal);
    }
}
