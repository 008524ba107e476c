using System.Buffers;
using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests;

/// <summary>Serializes with a generated mapper and reads the bytes back.</summary>
internal static class RoundTrip
{
    public static byte[] ToBytes<TId, T>(IDocumentMapper<TId, T> mapper, T document)
        where T : class
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        mapper.Serialize(document, ref writer);
        return output.WrittenSpan.ToArray();
    }

    public static T FromBytes<TId, T>(IDocumentMapper<TId, T> mapper, byte[] bytes)
        where T : class
    {
        var reader = new BsonSpanReader(bytes);
        var document = mapper.Deserialize(ref reader);
        Assert.Equal(bytes.Length, reader.Position);
        return document;
    }

    /// <summary>Round-trips and asserts deep equality; returns the copy read back.</summary>
    public static T AssertRoundTrips<TId, T>(IDocumentMapper<TId, T> mapper, T document)
        where T : class
    {
        var copy = FromBytes(mapper, ToBytes(mapper, document));
        Assert.NotSame(document, copy);
        DeepEquality.AssertEqual(document, copy);
        return copy;
    }
}
