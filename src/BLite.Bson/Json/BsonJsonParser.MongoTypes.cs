using System.Globalization;
using System.Text.Json;

namespace BLite.Bson;

// Extended JSON v2 wrappers of the MongoDB interop types, and the legacy forms the spec tells
// parsers to accept ({"$regex": ..., "$options": ...} and {"$binary": "...", "$type": "..."}).
internal ref partial struct BsonJsonParser
{
    // The reader is on the wrapper's key; on success it is left on the wrapped value's last token
    // (for two-key wrappers, on the second key's value).
    private bool TryParseMongoWrapper(string key, out BsonValue value)
    {
        switch (key)
        {
            case "$minKey":
            case "$maxKey":
                ReadToken();
                if (_reader.TokenType != JsonTokenType.Number || !_reader.TryGetInt32(out var one) || one != 1)
                {
                    throw Error($"\"{key}\" needs the number 1");
                }

                value = key == "$minKey" ? BsonValue.MinKey : BsonValue.MaxKey;
                return true;
            case "$undefined":
                ReadToken();
                if (_reader.TokenType != JsonTokenType.True)
                {
                    throw Error("\"$undefined\" needs the value true");
                }

                value = BsonValue.Undefined;
                return true;
            case "$symbol":
                value = new BsonSymbol(ReadWrappedText(key));
                return true;
            case "$code":
                value = ParseCode(codeFirst: true);
                return true;
            case "$scope":
                value = ParseCode(codeFirst: false);
                return true;
            case "$timestamp":
                value = ParseTimestamp();
                return true;
            case "$regularExpression":
                value = ParseRegularExpression();
                return true;
            case "$dbPointer":
                value = ParseDbPointer();
                return true;
            case "$regex" when FollowsLegacyPair("$options"):
                var pattern = ReadWrappedText(key);
                ReadToken();
                value = NewRegex(pattern, ReadWrappedText("$options"));
                return true;
            default:
                value = default;
                return false;
        }
    }

    /// <summary>
    /// Whether the object continues with a string value, then only <paramref name="secondKey"/>
    /// with a string value: a legacy two-key wrapper rather than a plain field such as a query's
    /// <c>$regex</c> operator. Looks ahead on a copy of the reader.
    /// </summary>
    private readonly bool FollowsLegacyPair(string secondKey)
    {
        var probe = _reader;
        return probe.Read() && probe.TokenType == JsonTokenType.String
            && probe.Read() && probe.TokenType == JsonTokenType.PropertyName && probe.ValueTextEquals(secondKey)
            && probe.Read() && probe.TokenType == JsonTokenType.String
            && probe.Read() && probe.TokenType == JsonTokenType.EndObject;
    }

    private BsonValue ParseCode(bool codeFirst)
    {
        string? code = null;
        BsonDocument? scope = null;
        if (codeFirst)
        {
            code = ReadWrappedText("$code");
        }
        else
        {
            scope = ReadScope();
        }

        var probe = _reader;
        if (probe.Read() && probe.TokenType == JsonTokenType.PropertyName)
        {
            ReadToken();
            var second = ReadString();
            if (codeFirst && second == "$scope")
            {
                scope = ReadScope();
            }
            else if (!codeFirst && second == "$code")
            {
                code = ReadWrappedText("$code");
            }
            else
            {
                throw Error($"\"{(codeFirst ? "$code" : "$scope")}\" may be followed only by \"{(codeFirst ? "$scope" : "$code")}\"; found \"{second}\"");
            }
        }

        if (code is null)
        {
            throw Error("\"$scope\" needs a \"$code\" beside it");
        }

        return scope is null ? new BsonJavaScript(code) : new BsonJavaScriptWithScope(code, scope);
    }

    private BsonDocument ReadScope()
    {
        ReadToken();
        if (_reader.TokenType != JsonTokenType.StartObject)
        {
            throw Error($"\"$scope\" needs a document; found {_reader.TokenType}");
        }

        var scope = ParseObject(2);
        return scope.IsDocument ? scope.AsDocument : throw Error($"\"$scope\" needs a document; found an Extended JSON {scope.Type} value");
    }

    private BsonValue ParseTimestamp()
    {
        uint? seconds = null;
        uint? increment = null;
        OpenWrapperObject("$timestamp", "t", "i");
        var seen = 0;
        while (NextWrapperKey("$timestamp", "t", "i", ref seen, out var name))
        {
            ReadToken();
            if (_reader.TokenType != JsonTokenType.Number || !_reader.TryGetUInt32(out var number))
            {
                throw Error($"\"$timestamp.{name}\" needs an unsigned 32-bit integer");
            }

            if (name == "t")
            {
                seconds = number;
            }
            else
            {
                increment = number;
            }
        }

        return new BsonTimestamp(seconds!.Value, increment!.Value);
    }

    private BsonValue ParseRegularExpression()
    {
        string? pattern = null;
        string? options = null;
        OpenWrapperObject("$regularExpression", "pattern", "options");
        var seen = 0;
        while (NextWrapperKey("$regularExpression", "pattern", "options", ref seen, out var name))
        {
            var text = ReadWrappedText("$regularExpression." + name);
            if (name == "pattern")
            {
                pattern = text;
            }
            else
            {
                options = text;
            }
        }

        return NewRegex(pattern!, options!);
    }

    private BsonValue ParseDbPointer()
    {
        string? ns = null;
        ObjectId? id = null;
        OpenWrapperObject("$dbPointer", "$ref", "$id");
        var seen = 0;
        while (NextWrapperKey("$dbPointer", "$ref", "$id", ref seen, out var name))
        {
            if (name == "$ref")
            {
                ns = ReadWrappedText("$dbPointer.$ref");
                continue;
            }

            ReadToken();
            var idValue = _reader.TokenType == JsonTokenType.StartObject ? ParseObject(2) : BsonValue.Null;
            id = idValue.Type == BsonType.ObjectId
                ? idValue.AsObjectId
                : throw Error("\"$dbPointer.$id\" needs an {\"$oid\": ...} value");
        }

        return new BsonDbPointer(ns!, id!.Value);
    }

    private void OpenWrapperObject(string wrapper, string first, string second)
    {
        ReadToken();
        if (_reader.TokenType != JsonTokenType.StartObject)
        {
            throw Error($"\"{wrapper}\" needs an object {{\"{first}\": ..., \"{second}\": ...}}; found {_reader.TokenType}");
        }
    }

    /// <summary>
    /// The next key of a two-key wrapper object (either order, each exactly once), with the reader
    /// left on it for the caller to read its value; false at the end of a complete object.
    /// </summary>
    private bool NextWrapperKey(string wrapper, string first, string second, ref int seen, out string name)
    {
        ReadToken();
        if (_reader.TokenType == JsonTokenType.EndObject)
        {
            name = "";
            return seen == 3 ? false : throw Error($"\"{wrapper}\" needs both \"{first}\" and \"{second}\"");
        }

        name = ReadString();
        var bit = name == first ? 1 : name == second ? 2 : 0;
        if (bit == 0 || (seen & bit) != 0)
        {
            throw Error($"\"{wrapper}\" has an unexpected or repeated key \"{name}\"");
        }

        seen |= bit;
        return true;
    }

    private readonly BsonRegex NewRegex(string pattern, string options)
    {
        if (pattern.Contains('\0') || options.Contains('\0'))
        {
            throw Error("a regular expression's pattern and options cannot contain a NUL character");
        }

        return new BsonRegex(pattern, options);
    }
}
