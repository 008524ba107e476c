using System.Globalization;
using System.Text.Json;

namespace BLite.Bson;

internal ref partial struct BsonJsonParser
{
    private static readonly string[] _utcDateFormats =
        ["yyyy-MM-dd'T'HH:mm:ss.FFFFFFF'Z'", "yyyy-MM-dd'T'HH:mm:ss.FFFFFFFzzz"];

    // The reader is on the wrapper's key; on success it is left on the wrapped value's last token.
    private bool TryParseWrapper(string key, out BsonValue value)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (key)
        {
            case "$oid":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = ObjectId.TryParse(s, out var id);
                    v = id;
                    return ok;
                });
                return true;
            case "$numberInt":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = int.TryParse(s, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var n);
                    v = n;
                    return ok;
                });
                return true;
            case "$numberLong":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = long.TryParse(s, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var n);
                    v = n;
                    return ok;
                });
                return true;
            case "$numberULong":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = ulong.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out var n);
                    v = n;
                    return ok;
                });
                return true;
            case "$numberDouble":
                value = ParseWrappedString(key, TryParseDouble);
                return true;
            case "$numberDecimal":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = BsonDecimal128.TryParse(s, out var d, out var problem);
                    v = ok ? d : problem;
                    return ok;
                });
                return true;
            case "$uuid":
                value = ParseWrappedString(key, static (string s, out BsonValue v) =>
                {
                    var ok = Guid.TryParseExact(s, "D", out var guid);
                    v = guid;
                    return ok;
                });
                return true;
            case "$binary" when FollowsLegacyPair("$type"):
                value = ParseLegacyBinary();
                return true;
            case "$binary":
                value = ParseBinary();
                return true;
            case "$date":
                value = ParseUtcDate();
                return true;
            case "$dateLocal":
            case "$dateUnspecified":
                var kind = key == "$dateLocal" ? DateTimeKind.Local : DateTimeKind.Unspecified;
                var clock = ReadWrappedText(key);
                value = DateTime.TryParseExact(clock, BsonJsonWriter.ClockDateFormat, invariant, DateTimeStyles.None, out var dateTime)
                    ? DateTime.SpecifyKind(dateTime, kind)
                    : throw Error($"\"{key}\" needs \"yyyy-MM-ddTHH:mm:ss[.fffffff]\"; got \"{clock}\"");
                return true;
            case "$dateTimeOffset":
                var text = ReadWrappedText(key);
                value = DateTimeOffset.TryParseExact(text, BsonJsonWriter.OffsetDateFormat, invariant, DateTimeStyles.None, out var dto)
                    ? dto
                    : throw Error($"\"{key}\" needs \"yyyy-MM-ddTHH:mm:ss[.fffffff]+hh:mm\"; got \"{text}\"");
                return true;
            case "$timeSpan":
                var span = ReadWrappedText(key);
                value = TimeSpan.TryParseExact(span, "c", invariant, out var timeSpan)
                    ? timeSpan
                    : throw Error($"\"{key}\" needs \"[-][d.]hh:mm:ss[.fffffff]\"; got \"{span}\"");
                return true;
            case "$dateOnly":
                var date = ReadWrappedText(key);
                value = DateOnly.TryParseExact(date, BsonJsonWriter.DateOnlyFormat, invariant, DateTimeStyles.None, out var dateOnly)
                    ? dateOnly
                    : throw Error($"\"{key}\" needs \"yyyy-MM-dd\"; got \"{date}\"");
                return true;
            case "$timeOnly":
                var time = ReadWrappedText(key);
                value = TimeOnly.TryParseExact(time, BsonJsonWriter.TimeOnlyFormat, invariant, DateTimeStyles.None, out var timeOnly)
                    ? timeOnly
                    : throw Error($"\"{key}\" needs \"HH:mm:ss[.fffffff]\"; got \"{time}\"");
                return true;
            default:
                return TryParseMongoWrapper(key, out value);
        }
    }

    private delegate bool TextConverter(string text, out BsonValue value);

    private BsonValue ParseWrappedString(string key, TextConverter convert)
    {
        var text = ReadWrappedText(key);
        if (!convert(text, out var value))
        {
            var detail = value.IsString ? $": {value.AsString}" : "";
            throw Error($"\"{text}\" is not a valid \"{key}\" value{detail}");
        }

        return value;
    }

    private string ReadWrappedText(string key)
    {
        ReadToken();
        if (_reader.TokenType != JsonTokenType.String)
        {
            throw Error($"\"{key}\" needs a string value; found {_reader.TokenType}");
        }

        return ReadString();
    }

    private static bool TryParseDouble(string text, out BsonValue value)
    {
        switch (text)
        {
            case "Infinity":
                value = double.PositiveInfinity;
                return true;
            case "-Infinity":
                value = double.NegativeInfinity;
                return true;
            case "NaN":
                value = double.NaN;
                return true;
        }

        var ok = double.TryParse(text, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent,
            CultureInfo.InvariantCulture, out var number) && double.IsFinite(number);
        value = number;
        return ok;
    }

    private BsonValue ParseBinary()
    {
        ReadToken();
        if (_reader.TokenType != JsonTokenType.StartObject)
        {
            throw Error("\"$binary\" needs an object {\"base64\": ..., \"subType\": ...}");
        }

        string? base64 = null;
        string? subtype = null;
        while (true)
        {
            ReadToken();
            if (_reader.TokenType == JsonTokenType.EndObject)
            {
                break;
            }

            var name = ReadString();
            var text = ReadWrappedText("$binary." + name);
            if (name == "base64" && base64 is null)
            {
                base64 = text;
            }
            else if (name == "subType" && subtype is null)
            {
                subtype = text;
            }
            else
            {
                throw Error($"\"$binary\" has an unexpected or repeated key \"{name}\"");
            }
        }

        if (base64 is null || subtype is null)
        {
            throw Error("\"$binary\" needs both \"base64\" and \"subType\"");
        }

        return NewBinary(base64, subtype);
    }

    /// <summary>The legacy form {"$binary": "&lt;base64&gt;", "$type": "&lt;hex&gt;"}.</summary>
    private BsonValue ParseLegacyBinary()
    {
        var base64 = ReadWrappedText("$binary");
        ReadToken();
        return NewBinary(base64, ReadWrappedText("$type"));
    }

    private readonly BsonValue NewBinary(string base64, string subtype)
    {
        if (subtype.Length is < 1 or > 2
            || !byte.TryParse(subtype, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var subtypeByte))
        {
            throw Error($"\"$binary\" subType \"{subtype}\" is not one or two hexadecimal digits");
        }

        var bytes = new byte[base64.Length * 3 / 4];
        if (!Convert.TryFromBase64String(base64, bytes, out var written))
        {
            throw Error("\"$binary\" base64 text is not valid base64");
        }

        return BsonValue.FromBinary(bytes.AsSpan(0, written), (BsonBinarySubtype)subtypeByte);
    }

    private BsonValue ParseUtcDate()
    {
        ReadToken();
        switch (_reader.TokenType)
        {
            case JsonTokenType.String:
                var text = ReadString();
                if (DateTimeOffset.TryParseExact(text, _utcDateFormats, CultureInfo.InvariantCulture,
                        DateTimeStyles.AssumeUniversal, out var instant))
                {
                    return instant.UtcDateTime;
                }

                throw Error($"\"$date\" needs an ISO-8601 date with Z or an offset; got \"{text}\"");
            case JsonTokenType.StartObject:
                ReadToken();
                if (_reader.TokenType != JsonTokenType.PropertyName || ReadString() != "$numberLong")
                {
                    throw Error("\"$date\" object form must be {\"$numberLong\": \"<milliseconds>\"}");
                }

                var milliseconds = ParseWrappedString("$numberLong", static (string s, out BsonValue v) =>
                {
                    var ok = long.TryParse(s, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var n);
                    v = n;
                    return ok;
                }).AsInt64;
                ReadToken();
                if (_reader.TokenType != JsonTokenType.EndObject)
                {
                    throw Error("\"$date\" object form must have only \"$numberLong\"");
                }

                return FromUnixMilliseconds(milliseconds);
            case JsonTokenType.Number when _mode == BsonJsonParseMode.Legacy:
                if (!_reader.TryGetInt64(out var legacyMilliseconds))
                {
                    throw Error("\"$date\" in the legacy form needs whole Unix milliseconds in the 64-bit range");
                }

                return FromUnixMilliseconds(legacyMilliseconds);
            case JsonTokenType.Number:
                throw Error("\"$date\" with a bare number is the legacy form, which Extended JSON v2 refuses: write {\"$date\": {\"$numberLong\": \"<milliseconds>\"}} (or parse with BsonJsonParseMode.Legacy, 'blite import --legacy-json')");
            default:
                throw Error($"\"$date\" needs a string or {{\"$numberLong\": ...}}; found {_reader.TokenType}");
        }
    }

    private static BsonValue FromUnixMilliseconds(long milliseconds) => BsonValue.FromUnixMilliseconds(milliseconds);
}
