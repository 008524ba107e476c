using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class ScalarTests
{
    private readonly BsonFieldDictionary _dictionary = new();
    private readonly ScalarDocumentDocumentMapper _mapper;

    public ScalarTests()
    {
        _mapper = new ScalarDocumentDocumentMapper(_dictionary);
    }

    [Fact]
    public void Every_scalar_of_the_type_mapping_round_trips_exactly()
    {
        var document = Sample();

        RoundTrip.AssertRoundTrips(_mapper, document);
    }

    [Fact]
    public void Default_values_round_trip()
    {
        RoundTrip.AssertRoundTrips(_mapper, new ScalarDocument());
    }

    [Fact]
    public void Decimal_keeps_its_scale()
    {
        var copy = RoundTrip.AssertRoundTrips(_mapper, new ScalarDocument { Decimal = 1.500m });
        Assert.Equal("1.500", copy.Decimal.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void Stored_types_follow_the_bson_type_mapping()
    {
        var bytes = RoundTrip.ToBytes(_mapper, new ScalarDocument { Payload = [1] });
        var types = StoredTypes(bytes);

        Assert.Equal(BsonType.ObjectId, types["_id"]);
        Assert.Equal(BsonType.Double, types["Single"]);
        Assert.Equal(BsonType.Int32, types["Char"]);
        Assert.Equal(BsonType.Int32, types["UInt16"]);
        Assert.Equal(BsonType.Int64, types["UInt32"]);
        Assert.Equal(BsonType.UInt64, types["UInt64"]);
        Assert.Equal(BsonType.Decimal128, types["Decimal"]);
        Assert.Equal(BsonType.Binary, types["Guid"]);
        Assert.Equal(BsonType.Binary, types["Payload"]);
        Assert.Equal(BsonType.DateTimeOffset, types["Offset"]);
        Assert.Equal(BsonType.TimeOnly, types["Clock"]);
    }

    private Dictionary<string, BsonType> StoredTypes(byte[] bytes)
    {
        var names = new Dictionary<string, BsonType>();
        var reader = new BsonSpanReader(bytes);
        reader.ReadDocumentStart();
        while (reader.TryReadFieldHeader(out var type, out var id))
        {
            Assert.True(_dictionary.TryGetName(id, out var name));
            names.Add(name, type);
            reader.SkipValue(type);
        }

        return names;
    }

    /// <summary>Every scalar at an edge of its range, shared with the member reader tests.</summary>
    internal static ScalarDocument Sample() => new()
    {
        Id = ObjectId.NewObjectId(),
        Text = "naïve café ☕ 𝄞",
        Flag = true,
        Double = Math.PI,
        Single = 1.1f,
        Int32 = int.MinValue,
        Int16 = short.MinValue,
        SByte = sbyte.MinValue,
        Byte = byte.MaxValue,
        UInt16 = ushort.MaxValue,
        Char = '\uFFFD',
        Int64 = long.MinValue,
        UInt32 = uint.MaxValue,
        UInt64 = ulong.MaxValue,
        Decimal = 12345678901234567890.1234567890m,
        Guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"),
        Reference = ObjectId.Parse("65000000b17e000000000001"),
        LocalTime = new DateTime(2025, 3, 30, 2, 30, 0, DateTimeKind.Local).AddTicks(1234567),
        UtcTime = DateTime.MaxValue.ToUniversalTime().AddTicks(-1),
        UnspecifiedTime = new DateTime(1, 1, 1, 0, 0, 0, DateTimeKind.Unspecified).AddTicks(1),
        Offset = new DateTimeOffset(2024, 2, 29, 23, 59, 59, TimeSpan.FromMinutes(-570)).AddTicks(9999),
        Duration = TimeSpan.FromTicks(-123456789012),
        Day = DateOnly.MaxValue,
        Clock = new TimeOnly(23, 59, 59, 999).Add(TimeSpan.FromTicks(9999)),
        Payload = [0, 1, 2, 254, 255],
    };
}
