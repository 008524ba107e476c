using System.Buffers;
using BLite.Bson;
using BLite.Bson.Mapping;

namespace BLite.PostgreSql.Tests.Infrastructure;

/// <summary>
/// What a mapper writes for a document: two documents with the same bytes kept every value's
/// type, bits and place, the strongest equality a fidelity test can ask for.
/// </summary>
public static class MapperBytes
{
    public static byte[] Of<TId, T>(IDocumentMapper<TId, T> mapper, T document)
        where T : class
    {
        var output = new ArrayBufferWriter<byte>();
        var writer = new BsonSpanWriter(output);
        mapper.Serialize(document, ref writer);
        writer.Flush();
        return output.WrittenSpan.ToArray();
    }
}
