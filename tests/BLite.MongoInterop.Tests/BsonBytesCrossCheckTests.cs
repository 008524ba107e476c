using BLite.Bson.Interop;
using M = MongoDB.Bson;

namespace BLite.MongoInterop.Tests;

/// <summary>
/// Standard BSON both ways between MongoDB.Bson and BLite: whatever one writes, the other reads
/// and writes back byte for byte, for every element of every type.
/// </summary>
public class BsonBytesCrossCheckTests
{
    public static TheoryData<string> ElementNames()
    {
        var data = new TheoryData<string>();
        foreach (var element in MongoSamples.EveryType(1))
        {
            data.Add(element.Name);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ElementNames))]
    public void An_element_written_by_MongoDB_is_read_and_written_back_by_BLite_byte_for_byte(string name)
    {
        var mongo = new M.BsonDocument(name, MongoSamples.EveryType(1)[name]);
        var bytes = MongoSamples.ToBson(mongo);

        var blite = StandardBsonReader.ReadDocument(bytes);

        Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(StandardBsonWriter.ToBytes(blite)));
    }

    [Fact]
    public void A_document_with_every_type_goes_MongoDB_to_BLite_storage_form_and_back_unchanged()
    {
        var bytes = MongoSamples.ToBson(MongoSamples.EveryType(1));
        var blite = StandardBsonReader.ReadDocument(bytes);

        // Through C-BSON, BLite's storage encoding, and back.
        var dictionary = new BLite.Bson.BsonFieldDictionary();
        var stored = BLite.BsonDocument.FromBytes(blite.ToBytes(dictionary), dictionary);

        Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(StandardBsonWriter.ToBytes(stored)));
    }

    [Fact]
    public void A_document_written_by_BLite_is_read_by_MongoDB_to_the_same_values_and_bytes()
    {
        var original = MongoSamples.EveryType(2);
        var blite = StandardBsonReader.ReadDocument(MongoSamples.ToBson(original));
        var bliteBytes = StandardBsonWriter.ToBytes(blite);

        var readByMongo = MongoSamples.FromBson(bliteBytes);

        Assert.Equal(original.ElementCount, readByMongo.ElementCount);
        for (var i = 0; i < original.ElementCount; i++)
        {
            Assert.Equal(original.GetElement(i).Name, readByMongo.GetElement(i).Name);
            Assert.Equal(original[i].BsonType, readByMongo[i].BsonType);
        }

        Assert.Equal(Convert.ToHexString(bliteBytes), Convert.ToHexString(MongoSamples.ToBson(readByMongo)));
    }

    [Fact]
    public void Decimal128_bits_and_text_agree_with_MongoDB_for_the_sample_values()
    {
        foreach (var element in MongoSamples.EveryType(1).Where(e => e.Value.BsonType == M.BsonType.Decimal128))
        {
            var mongo = element.Value.AsDecimal128;
            var blite = StandardBsonReader.ReadDocument(MongoSamples.ToBson(new M.BsonDocument("d", mongo)))["d"].AsDecimal128;

            Assert.Equal(mongo.GetIEEEHighBits(), blite.HighBits);
            Assert.Equal(mongo.GetIEEELowBits(), blite.LowBits);
            Assert.Equal(mongo.ToString(), blite.ToString());
            Assert.True(BLite.Bson.BsonDecimal128.Parse(mongo.ToString()).BitsEqual(blite), element.Name);
        }
    }
}
