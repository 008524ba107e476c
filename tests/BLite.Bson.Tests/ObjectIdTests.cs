namespace BLite.Bson.Tests;

public class ObjectIdTests
{
    [Fact]
    public void Layout_is_timestamp_random_counter_big_endian()
    {
        var id = ObjectId.Create(0x01020304, 0x05_0607_0809, 0x0A0B0C);
        Assert.Equal(Convert.FromHexString("0102030405060708090a0b0c"), id.ToByteArray());
        Assert.Equal("0102030405060708090a0b0c", id.ToString());
        Assert.Equal(0x01020304u, id.Timestamp);
    }

    [Fact]
    public void Parse_and_format_round_trip_in_either_case()
    {
        var id = ObjectId.Parse("5F1D7A2B9C3E4F5A6B7C8D9E");
        Assert.Equal("5f1d7a2b9c3e4f5a6b7c8d9e", id.ToString());
        Assert.Equal(id, ObjectId.Parse(id.ToString()));
        Assert.Equal(id, new ObjectId(id.ToByteArray()));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("5f1d7a2b9c3e4f5a6b7c8d9")]
    [InlineData("5f1d7a2b9c3e4f5a6b7c8d9e0")]
    [InlineData("5f1d7a2b9c3e4f5a6b7c8d9g")]
    public void TryParse_rejects_anything_but_24_hex_digits(string? text)
    {
        Assert.False(ObjectId.TryParse(text, out var id));
        Assert.Equal(ObjectId.Empty, id);
        if (text is not null)
        {
            Assert.Throws<FormatException>(() => ObjectId.Parse(text));
        }
    }

    [Fact]
    public void New_ids_carry_the_current_time_and_increase_within_a_second()
    {
        var before = DateTime.UtcNow.AddSeconds(-1);
        var first = ObjectId.NewObjectId();
        var second = ObjectId.NewObjectId();
        Assert.NotEqual(first, second);
        Assert.InRange(first.CreationTime, before.AddTicks(-before.Ticks % TimeSpan.TicksPerSecond), DateTime.UtcNow.AddSeconds(1));
        Assert.Equal(DateTimeKind.Utc, first.CreationTime.Kind);
        if (first.Timestamp == second.Timestamp && (first.ToByteArray()[11] != 0xFF))
        {
            Assert.True(first < second);
        }
    }

    [Fact]
    public void Ordering_compares_bytes_lexicographically()
    {
        var ids = new[]
        {
            ObjectId.Parse("000000000000000000000001"),
            ObjectId.Parse("00000000000000000000ff00"),
            ObjectId.Parse("0000000000ff000000000000"),
            ObjectId.Parse("7fffffff0000000000000000"),
            ObjectId.Parse("800000000000000000000000"),
            ObjectId.Parse("ffffffffffffffffffffffff"),
        };
        for (var i = 1; i < ids.Length; i++)
        {
            Assert.True(ids[i - 1] < ids[i]);
            Assert.True(ids[i - 1].CompareTo(ids[i]) < 0);
            Assert.True(ids[i].CompareTo(ids[i - 1]) > 0);
        }

        Assert.Equal(0, ids[2].CompareTo(ObjectId.Parse("0000000000ff000000000000")));
    }

    [Fact]
    public void Constructor_and_WriteTo_check_sizes()
    {
        Assert.Throws<ArgumentException>(() => new ObjectId(new byte[11]));
        Assert.Throws<ArgumentException>(() => ObjectId.Empty.WriteTo(new byte[11]));
    }
}
