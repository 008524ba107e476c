namespace BLite.Bson.Tests.Documents;

public class BsonValueTests
{
    [Fact]
    public void Default_value_is_null()
    {
        BsonValue value = default;
        Assert.True(value.IsNull);
        Assert.Equal(BsonType.Null, value.Type);
        Assert.Equal(BsonValue.Null, value);
        Assert.Equal(BsonValue.Null, (BsonValue)(string?)null);
    }

    [Fact]
    public void Conversions_follow_the_dotnet_type_mapping()
    {
        Assert.Equal(BsonType.Int32, ((BsonValue)(byte)1).Type);
        Assert.Equal(BsonType.Int32, ((BsonValue)(sbyte)-1).Type);
        Assert.Equal(BsonType.Int32, ((BsonValue)(short)1).Type);
        Assert.Equal(BsonType.Int32, ((BsonValue)(ushort)65535).Type);
        Assert.Equal(65535, ((BsonValue)(ushort)65535).AsInt32);
        Assert.Equal(BsonType.Int32, ((BsonValue)'x').Type);
        Assert.Equal(BsonType.Int64, ((BsonValue)uint.MaxValue).Type);
        Assert.Equal(uint.MaxValue, ((BsonValue)uint.MaxValue).AsInt64);
        Assert.Equal(BsonType.UInt64, ((BsonValue)ulong.MaxValue).Type);
        Assert.Equal(BsonType.Double, ((BsonValue)1.5f).Type);
        Assert.Equal((double)0.1f, ((BsonValue)0.1f).AsDouble);
        Assert.Equal(BsonType.Decimal128, ((BsonValue)1m).Type);
        Assert.Equal(BsonType.Binary, ((BsonValue)Guid.Empty).Type);
        Assert.Equal(BsonType.Int64, BsonValue.FromEnum((ConsoleKeyLongEnum)3).Type);
        Assert.Equal(BsonType.Int32, BsonValue.FromEnum(DayOfWeek.Monday).Type);
    }

    [Fact]
    public void Accessors_refuse_the_wrong_type()
    {
        BsonValue value = 1;
        Assert.Throws<InvalidCastException>(() => value.AsString);
        Assert.Throws<InvalidCastException>(() => value.AsInt64);
        Assert.Throws<InvalidCastException>(() => ((BsonValue)new byte[3]).AsGuid);
        Assert.Equal(1L, value.ToInt64());
        Assert.Equal(1.0, value.ToDouble());
    }

    [Fact]
    public void Equality_is_type_strict()
    {
        Assert.NotEqual((BsonValue)1, (BsonValue)1L);
        Assert.Equal((BsonValue)1.50m, (BsonValue)1.5m);
        Assert.Equal((BsonValue)double.NaN, (BsonValue)double.NaN);
        Assert.Equal((BsonValue)Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"),
            BsonValue.FromBinary(Convert.FromHexString("00112233445566778899aabbccddeeff"), BsonBinarySubtype.Uuid));
    }

    [Fact]
    public void Ordering_compares_numbers_by_value_across_types()
    {
        BsonValue[] ascending =
        [
            BsonValue.Null, double.NaN, double.NegativeInfinity, long.MinValue, -1, 0.5m, 1, 1.5, 2L,
            (BsonValue)(ulong)long.MaxValue, 9223372036854775808.0, ulong.MaxValue, double.PositiveInfinity,
            "", "a", "b", new BsonDocument(), new BsonArray(), new byte[1], ObjectId.Empty, false, true,
            new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc), TimeSpan.Zero, DateOnly.MinValue, TimeOnly.MinValue,
        ];
        for (var i = 1; i < ascending.Length; i++)
        {
            Assert.True(ascending[i - 1].CompareTo(ascending[i]) < 0, $"{ascending[i - 1]} should sort before {ascending[i]}");
            Assert.True(ascending[i].CompareTo(ascending[i - 1]) > 0, $"{ascending[i]} should sort after {ascending[i - 1]}");
        }

        Assert.Equal(0, ((BsonValue)2).CompareTo(2.0));
        Assert.Equal(0, ((BsonValue)2L).CompareTo(2m));
    }

    private enum ConsoleKeyLongEnum : long
    {
    }
}
