using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using BLite.Bson;
using BLite.Bson.Jsonb;
using BLite.PostgreSql.Jsonb;

namespace BLite.PostgreSql.Storage;

/// <summary>
/// Writes a document's jsonb text through a buffer and JSON writer kept per thread, so each write
/// allocates only the finished text (the parameter value Npgsql sends), not a buffer sized for
/// growth and a writer besides. The text is copied out before returning, so a buffer is never
/// shared by two writes; one that grew past <see cref="RetainedCapacity"/> for a large document
/// is dropped rather than kept for the thread's lifetime.
/// </summary>
internal static class JsonbText
{
    private const int RetainedCapacity = 256 * 1024;

    private static readonly JsonWriterOptions Options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, SkipValidation = true };

    [ThreadStatic]
    private static ArrayBufferWriter<byte>? t_buffer;

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    public static byte[] Write(ReadOnlySpan<byte> document, BsonFieldDictionary fields)
    {
        var writer = Begin();
        JsonbWriter.WriteDocument(document, writer, fields);
        return Finish(writer);
    }

    /// <summary>The document written straight from the object by its generated mapper: no C-BSON step.</summary>
    public static byte[] Write<T>(IJsonbDocumentMapper<T> mapper, T document)
        where T : class
    {
        var writer = Begin();
        mapper.WriteJsonb(document, writer);
        return Finish(writer);
    }

    private static Utf8JsonWriter Begin()
    {
        var buffer = t_buffer ??= new ArrayBufferWriter<byte>(4096);
        buffer.ResetWrittenCount();
        var writer = t_writer ??= new Utf8JsonWriter(buffer, Options);
        writer.Reset(buffer);
        return writer;
    }

    private static byte[] Finish(Utf8JsonWriter writer)
    {
        writer.Flush();
        var buffer = t_buffer!;
        var text = buffer.WrittenSpan.ToArray();
        if (buffer.Capacity > RetainedCapacity)
        {
            (t_buffer, t_writer) = (null, null);
        }

        return text;
    }
}
