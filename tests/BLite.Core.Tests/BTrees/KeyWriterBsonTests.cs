using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

public sealed class KeyWriterBsonTests
{
    public static TheoryData<string> Values => new() { "null", "bool", "int", "long", "ulong", "double", "decimal", "string", "binary", "guid", "objectid", "datetime", "dto", "timespan", "dateonly", "timeonly" };

    [Theory]
    [MemberData(nameof(Values))]
    public void A_bson_value_keys_like_the_same_dotnet_value_written_directly(string name)
    {
        var (value, direct) = Sample(name);
        var dictionary = new BsonFieldDictionary();
        var document = new BsonDocument { ["v"] = value };
        var bytes = document.ToBytes(dictionary);

        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        Assert.True(reader.TryReadFieldHeader(out var type, out _));
        var buffer = new byte[256];
        var writer = new KeyWriter(buffer);
        writer.WriteBsonValue(ref reader, type);
        var fromRaw = writer.WrittenSpan.ToArray();
        var fromValue = TestKeys.Encode((ref KeyWriter w) => w.WriteBsonValue(value));

        Assert.Equal(direct, fromRaw);
        Assert.Equal(direct, fromValue);
    }

    [Fact]
    public void Documents_and_arrays_are_not_key_components()
    {
        Assert.False(KeyWriter.IsIndexable(BsonType.Document));
        Assert.False(KeyWriter.IsIndexable(BsonType.Array));
        Assert.Throws<ArgumentException>(() => TestKeys.Encode((ref KeyWriter w) => w.WriteBsonValue(new BsonArray())));
    }

    private static (BsonValue Value, byte[] Direct) Sample(string name)
    {
        var guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
        var id = ObjectId.Create(1_700_000_000, 12345, 678);
        var at = new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc);
        var offset = new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromHours(2));
        return name switch
        {
            "null" => (BsonValue.Null, TestKeys.Encode((ref KeyWriter w) => w.WriteNull())),
            "bool" => (true, TestKeys.Encode((ref KeyWriter w) => w.WriteBoolean(true))),
            "int" => (-5, TestKeys.Int(-5)),
            "long" => (1L << 40, TestKeys.Int(1L << 40)),
            "ulong" => (ulong.MaxValue, TestKeys.Encode((ref KeyWriter w) => w.WriteUInt64(ulong.MaxValue))),
            "double" => (2.5, TestKeys.Encode((ref KeyWriter w) => w.WriteDouble(2.5))),
            "decimal" => (12.50m, TestKeys.Encode((ref KeyWriter w) => w.WriteDecimal(12.5m))),
            "string" => ("h\u00e9\0llo", TestKeys.Str("h\u00e9\0llo")),
            "binary" => (BsonValue.FromBinary(new byte[] { 0, 1, 2 }), TestKeys.Encode((ref KeyWriter w) => w.WriteBinary([0, 1, 2]))),
            "guid" => (guid, TestKeys.Encode((ref KeyWriter w) => w.WriteGuid(guid))),
            "objectid" => (id, TestKeys.Encode((ref KeyWriter w) => w.WriteObjectId(id))),
            "datetime" => (at, TestKeys.Encode((ref KeyWriter w) => w.WriteDateTime(at))),
            "dto" => (offset, TestKeys.Encode((ref KeyWriter w) => w.WriteDateTimeOffset(offset))),
            "timespan" => (TimeSpan.FromMinutes(-3), TestKeys.Encode((ref KeyWriter w) => w.WriteTimeSpan(TimeSpan.FromMinutes(-3)))),
            "dateonly" => (new DateOnly(2020, 2, 29), TestKeys.Encode((ref KeyWriter w) => w.WriteDateOnly(new DateOnly(2020, 2, 29)))),
            "timeonly" => (new TimeOnly(13, 14), TestKeys.Encode((ref KeyWriter w) => w.WriteTimeOnly(new TimeOnly(13, 14)))),
            _ => throw new ArgumentOutOfRangeException(nameof(name)),
        };
    }
}
