using System.Diagnostics.CodeAnalysis;
using System.Text;
using System.Text.Json;

namespace BLite.Bson.Jsonb;

/// <summary>
/// Typed value reads from BLite's jsonb text for generated mappers, with the same rules as
/// <see cref="Mapping.BsonMemberReader"/> over the C-BSON the transcoder would have produced: the
/// form BLite writes is read on a fast path straight from the UTF-8 token; any other form is
/// classified as the stored type it stands for (<see cref="Stored"/>) and then accepted (lossless
/// integer conversions), or refused with a <see cref="Mapping.BsonMappingException"/> naming the
/// member. Every method starts on the value's first token and ends on its last.
/// <paramref name="member"/> arguments are "Type.Member" literals, used only in messages.
/// </summary>
public static partial class JsonbMemberReader
{
    /// <summary>The reader options a stored document is read with: as deep as C-BSON allows, plus the tag objects.</summary>
    public static JsonReaderOptions Options { get; } = new() { MaxDepth = BsonLimits.MaxDepth + 2 };

    /// <summary>Moves to the next property of the object being read: true on a name, false at its end.</summary>
    public static bool NextProperty(ref Utf8JsonReader json)
    {
        Next(ref json);
        return json.TokenType switch
        {
            JsonTokenType.PropertyName => true,
            JsonTokenType.EndObject => false,
            _ => throw new JsonException($"expected a property name, found {json.TokenType}"),
        };
    }

    /// <summary>Moves to the value of the property just read.</summary>
    public static void Next(ref Utf8JsonReader json)
    {
        if (!json.Read())
        {
            throw new JsonException("the JSON ends early");
        }
    }

    /// <summary>The stored key the reader stands on, unescaped; allocates only for a key written with JSON escapes.</summary>
    public static ReadOnlySpan<byte> PropertyName(ref Utf8JsonReader json)
        => json.ValueIsEscaped ? Encoding.UTF8.GetBytes(json.GetString()!) : json.ValueSpan;

    /// <summary>Skips the value the reader stands on (a member the type does not map).</summary>
    public static void Skip(ref Utf8JsonReader json) => json.Skip();

    /// <summary>Checks that the value is an embedded document (an object that is not a tagged value).</summary>
    public static void ExpectDocument(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType != JsonTokenType.StartObject || IsTagged(json))
        {
            ThrowMismatch(ref json, member, BsonType.Document);
        }
    }

    public static void ExpectArray(ref Utf8JsonReader json, string member)
    {
        if (json.TokenType != JsonTokenType.StartArray)
        {
            ThrowMismatch(ref json, member, BsonType.Array);
        }
    }

    /// <summary>Moves to the next item of the array being read: false at its end.</summary>
    public static bool NextItem(ref Utf8JsonReader json)
    {
        Next(ref json);
        return json.TokenType != JsonTokenType.EndArray;
    }

    /// <summary>Counts the items of the array the reader stands on, on a copy, so a collection is sized exactly.</summary>
    public static int CountArrayItems(Utf8JsonReader probe)
    {
        var count = 0;
        while (NextItem(ref probe))
        {
            count++;
            probe.Skip();
        }

        return count;
    }

    /// <summary>A dictionary key: the stored key with the <c>$</c> escape of a leading <c>$</c> removed.</summary>
    public static string ReadDictionaryKey(ref Utf8JsonReader json)
    {
        var key = json.GetString()!;
        return key.StartsWith("$$", StringComparison.Ordinal) ? key[1..] : key;
    }

    /// <summary>The UTF-8 discriminator (<c>_t</c>) of the document the reader stands on, read on a copy; empty when it has none.</summary>
    public static ReadOnlySpan<byte> ReadDiscriminator(Utf8JsonReader probe, string member)
    {
        while (NextProperty(ref probe))
        {
            var isDiscriminator = probe.ValueTextEquals("_t"u8);
            Next(ref probe);
            if (isDiscriminator)
            {
                if (probe.TokenType != JsonTokenType.String)
                {
                    ThrowMismatch(ref probe, member + "._t", BsonType.String);
                }

                return probe.ValueIsEscaped ? Encoding.UTF8.GetBytes(probe.GetString()!) : probe.ValueSpan;
            }

            probe.Skip();
        }

        return default;
    }

    /// <summary>Checks that the whole text was one document, nothing after it.</summary>
    public static void ExpectEnd(ref Utf8JsonReader json)
    {
        if (json.Read())
        {
            throw new JsonException($"unexpected {json.TokenType} after the document");
        }
    }

    /// <summary>The error for text that is not JSON, or not a BLite document, while reading <paramref name="member"/>.</summary>
    public static BsonFormatException Malformed(string member, Exception error)
        => new($"The stored jsonb is not a BLite document (reading '{member}'): {error.Message}", (error as JsonException)?.BytePositionInLine ?? 0);

    /// <summary>Whether the object the reader stands on is a tagged value: its first key starts with a single <c>$</c>.</summary>
    private static bool IsTagged(Utf8JsonReader probe)
    {
        if (!probe.Read() || probe.TokenType != JsonTokenType.PropertyName)
        {
            return false;
        }

        if (probe.ValueIsEscaped)
        {
            var key = probe.GetString()!;
            return key.Length > 1 && key[0] == '$' && key[1] != '$';
        }

        return probe.ValueSpan is [(byte)'$', var second, ..] && second != (byte)'$';
    }

    [DoesNotReturn]
    private static void ThrowMismatch(ref Utf8JsonReader json, string member, BsonType expected)
    {
        var at = json.TokenStartIndex;
        var found = ReadStored(ref json).Type;
        throw Mismatch(member, expected, found, at);
    }

    private static Mapping.BsonMappingException Mismatch(string member, BsonType expected, BsonType found, long at)
        => new($"Cannot read '{member}': expected a stored {expected}, found {found} (at byte {at}).");

    private static Mapping.BsonMappingException OutOfRange<TValue>(string member, TValue value)
        => new($"Cannot read '{member}': the stored value {value} is out of the member type's range.");
}
