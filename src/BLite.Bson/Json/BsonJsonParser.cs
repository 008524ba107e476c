using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace BLite.Bson;

/// <summary>
/// Parses Extended JSON v2 (canonical and relaxed) plus the BLite wrappers of docs/json.md.
/// Tokenizing is done by <see cref="Utf8JsonReader"/>; every failure, syntactic or semantic,
/// becomes a <see cref="BsonFormatException"/> whose offset is a character index into the text.
/// </summary>
internal ref partial struct BsonJsonParser
{
    private static readonly UTF8Encoding _strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly ReadOnlySpan<byte> _utf8;
    private readonly BsonJsonParseMode _mode;
    private Utf8JsonReader _reader;

    private BsonJsonParser(ReadOnlySpan<byte> utf8, BsonJsonParseMode mode)
    {
        _utf8 = utf8;
        _mode = mode;
        // Wrappers such as {"$binary": {...}} sit two levels below the value they encode.
        _reader = new Utf8JsonReader(utf8, new JsonReaderOptions { MaxDepth = BsonLimits.MaxDepth + 2 });
    }

    public static BsonDocument ParseDocument(string json, BsonJsonParseMode mode = BsonJsonParseMode.Standard)
    {
        byte[] rented;
        int length;
        try
        {
            rented = ArrayPool<byte>.Shared.Rent(_strictUtf8.GetMaxByteCount(json.Length));
            length = _strictUtf8.GetBytes(json, rented);
        }
        catch (EncoderFallbackException ex)
        {
            throw new BsonFormatException("JSON text holds an unpaired surrogate character", ex.Index, ex);
        }

        try
        {
            var parser = new BsonJsonParser(rented.AsSpan(0, length), mode);
            return parser.ParseRootDocument();
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private BsonDocument ParseRootDocument()
    {
        try
        {
            if (!_reader.Read())
            {
                throw Error("JSON text is empty");
            }

            if (_reader.TokenType != JsonTokenType.StartObject)
            {
                throw Error($"A document must be a JSON object; found {_reader.TokenType}");
            }

            var value = ParseObject(1);
            if (!value.IsDocument)
            {
                throw Error($"The top-level object is an Extended JSON {value.Type} value, not a document");
            }

            if (_reader.Read())
            {
                throw Error("Unexpected content after the document");
            }

            return value.AsDocument;
        }
        catch (JsonException ex)
        {
            throw new BsonFormatException(
                $"Invalid JSON at line {ex.LineNumber + 1}, byte {ex.BytePositionInLine + 1} of the line: {ex.Message}",
                CharOffset(_reader.BytesConsumed), ex);
        }
    }

    // Called with the reader on a value's first token; leaves it on the value's last token.
    private BsonValue ParseValue(int depth) => _reader.TokenType switch
    {
        JsonTokenType.StartObject => ParseObject(depth + 1),
        JsonTokenType.StartArray => ParseArray(depth + 1),
        JsonTokenType.String => ReadString(),
        JsonTokenType.Number => ParseNumber(),
        JsonTokenType.True => true,
        JsonTokenType.False => false,
        JsonTokenType.Null => BsonValue.Null,
        _ => throw Error($"Unexpected JSON token {_reader.TokenType}"),
    };

    private BsonValue ParseObject(int depth)
    {
        CheckDepth(depth);
        ReadToken();
        if (_reader.TokenType == JsonTokenType.EndObject)
        {
            return new BsonDocument();
        }

        var firstName = ReadString();
        if (firstName.Length > 1 && firstName[0] == '$' && TryParseWrapper(firstName, out var wrapped))
        {
            ReadToken();
            if (_reader.TokenType != JsonTokenType.EndObject)
            {
                throw Error($"Extended JSON \"{firstName}\" must be the only key of its object");
            }

            return wrapped;
        }

        var document = new BsonDocument();
        var name = firstName;
        while (true)
        {
            if (document.ContainsKey(name))
            {
                throw Error($"Duplicate field \"{name}\"");
            }

            ReadToken();
            document.Add(name, ParseValue(depth));
            ReadToken();
            if (_reader.TokenType == JsonTokenType.EndObject)
            {
                return document;
            }

            name = ReadString();
        }
    }

    private BsonValue ParseArray(int depth)
    {
        CheckDepth(depth);
        var array = new BsonArray();
        while (true)
        {
            ReadToken();
            if (_reader.TokenType == JsonTokenType.EndArray)
            {
                return array;
            }

            array.Add(ParseValue(depth));
        }
    }

    private BsonValue ParseNumber()
    {
        var raw = _reader.ValueSpan;
        if (raw.IndexOfAny((byte)'.', (byte)'e', (byte)'E') < 0)
        {
            if (_reader.TryGetInt32(out var int32))
            {
                return int32;
            }

            if (_reader.TryGetInt64(out var int64))
            {
                return int64;
            }
        }

        if (!_reader.TryGetDouble(out var number) || !double.IsFinite(number))
        {
            throw Error($"Number {Encoding.UTF8.GetString(raw)} is out of the range of a double");
        }

        return number;
    }

    private readonly void CheckDepth(int depth)
    {
        if (depth > BsonLimits.MaxDepth)
        {
            throw Error($"Nesting exceeds the limit of {BsonLimits.MaxDepth} documents and arrays");
        }
    }

    private void ReadToken()
    {
        if (!_reader.Read())
        {
            throw Error("JSON text ends early");
        }
    }

    private string ReadString()
    {
        if (_reader.TokenType is not (JsonTokenType.String or JsonTokenType.PropertyName))
        {
            throw Error($"Expected a string; found {_reader.TokenType}");
        }

        try
        {
            return _reader.GetString()!;
        }
        catch (InvalidOperationException ex)
        {
            throw new BsonFormatException($"Invalid string: {ex.Message}", CharOffset(_reader.TokenStartIndex), ex);
        }
    }

    private readonly BsonFormatException Error(string message) => new(message, CharOffset(_reader.TokenStartIndex));

    private readonly long CharOffset(long byteOffset)
    {
        var end = (int)Math.Clamp(byteOffset, 0, _utf8.Length);
        return Encoding.UTF8.GetCharCount(_utf8[..end]);
    }
}
