using System.Text.Json;
using System.Text.Json.Serialization;
using BLite.Bson;

namespace BLite.Benchmarks.Workload;

/// <summary>
/// The System.Text.Json peer, source-generated as its own experts would set it up: no reflection,
/// default (compact) output.
/// </summary>
[JsonSourceGenerationOptions(Converters = [typeof(ObjectIdJsonConverter)])]
[JsonSerializable(typeof(CustomerOrder))]
[JsonSerializable(typeof(List<CustomerOrder>))]
internal sealed partial class OrderJsonContext : JsonSerializerContext
{
}

/// <summary>ObjectId as its 24-hex-digit string, without allocating in either direction.</summary>
internal sealed class ObjectIdJsonConverter : JsonConverter<ObjectId>
{
    public override ObjectId Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        Span<char> text = stackalloc char[24];
        var length = reader.CopyString(text);
        return ObjectId.TryParse(text[..length], out var id) ? id : throw new JsonException("An ObjectId is 24 hex digits.");
    }

    public override void Write(Utf8JsonWriter writer, ObjectId value, JsonSerializerOptions options)
    {
        Span<byte> bytes = stackalloc byte[ObjectId.Size];
        value.WriteTo(bytes);
        Span<char> text = stackalloc char[24];
        Convert.TryToHexStringLower(bytes, text, out _);
        writer.WriteStringValue(text);
    }
}
