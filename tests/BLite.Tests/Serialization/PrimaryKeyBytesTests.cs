using BLite.Bson;
using BLite.Core.Collections;
using BLite.Serialization;

namespace BLite.Tests.Serialization;

/// <summary>The inline lookup key must be byte for byte the key the collections layer stores.</summary>
public sealed class PrimaryKeyBytesTests
{
    [Fact]
    public void ObjectId_keys_match_the_stored_encoding()
    {
        var id = ObjectId.Parse("65f0a1b2c3d4e5f60718293a");
        Assert.Equal(IndexKeys.EncodeId(id), IdValues<ObjectId>.EncodeKeyBytes(id).Span.ToArray());
    }

    [Fact]
    public void Guid_keys_match_the_stored_encoding()
    {
        var id = Guid.Parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
        Assert.Equal(IndexKeys.EncodeId(id), IdValues<Guid>.EncodeKeyBytes(id).Span.ToArray());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    [InlineData(int.MaxValue)]
    public void Int32_keys_match_the_stored_encoding(int id)
    {
        Assert.Equal(IndexKeys.EncodeId(id), IdValues<int>.EncodeKeyBytes(id).Span.ToArray());
    }

    [Theory]
    [InlineData(0L)]
    [InlineData(-5L)]
    [InlineData(long.MinValue)]
    [InlineData(long.MaxValue)]
    public void Int64_keys_match_the_stored_encoding(long id)
    {
        Assert.Equal(IndexKeys.EncodeId(id), IdValues<long>.EncodeKeyBytes(id).Span.ToArray());
    }

    [Theory]
    [InlineData("")]
    [InlineData("order-000123")]
    [InlineData("a\0b")]
    [InlineData("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0")]
    [InlineData("€€€€€€€€€€€€€€€€€€€€")]
    [InlineData("€€€€€€€€€€€€€€€€€€€€€")]
    [InlineData("a string id far longer than any inline buffer would hold, so it goes to an array")]
    [InlineData("😀 surrogate pairs 😀")]
    public void String_keys_match_the_stored_encoding_inline_or_not(string id)
    {
        Assert.Equal(IndexKeys.EncodeId(id), IdValues<string>.EncodeKeyBytes(id).Span.ToArray());
    }

    [Fact]
    public void An_unpaired_surrogate_is_refused_like_the_stored_encoding_refuses_it()
    {
        Assert.Throws<ArgumentException>(() => IndexKeys.EncodeId("x\uD800"));
        Assert.Throws<ArgumentException>(() => IdValues<string>.EncodeKeyBytes("x\uD800"));
    }

    [Fact]
    public void A_null_string_id_is_refused()
    {
        Assert.Throws<ArgumentNullException>(() => IdValues<string>.EncodeKeyBytes(null!));
    }
}
