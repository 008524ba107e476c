using System.Text.Json;

namespace BLite.Bson.Jsonb;

/// <summary>
/// A generated mapper that also writes and reads BLite's jsonb form (docs/postgresql.md) straight
/// from and into the object, so a jsonb store skips the C-BSON step on its hot path. The output is
/// the jsonb the C-BSON transcoder would produce from the mapper's C-BSON, and reading accepts what
/// the transcoder accepts, with the same conversions and errors.
/// </summary>
/// <typeparam name="T">The document type.</typeparam>
public interface IJsonbDocumentMapper<T>
    where T : class
{
    /// <summary>Writes the whole document as one JSON object.</summary>
    void WriteJsonb(T document, Utf8JsonWriter writer);

    /// <summary>
    /// Reads one whole document from its jsonb text. Text that is not JSON raises
    /// <see cref="BsonFormatException"/>; a value of the wrong type a <see cref="Mapping.BsonMappingException"/>,
    /// both naming the member being read.
    /// </summary>
    T ReadJsonb(ReadOnlySpan<byte> utf8Json);
}
