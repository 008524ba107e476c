using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.Text;

namespace BLite.Bson.Interop;

/// <summary>
/// Writes <see cref="BsonDocument"/>s as standard BSON (bsonspec.org): field names as UTF-8
/// cstrings, array items keyed "0", "1", ..., and BLite's extension types mapped to standard
/// ones — the bytes MongoDB's tools (mongorestore, bsondump) and drivers read. A file of such
/// documents written back to back is what mongodump produces per collection.
/// </summary>
/// <remarks>
/// Mapping (docs/cli.md, "Standard BSON mapping"): DateTime → UTC datetime 0x09 in whole
/// milliseconds (Local converted to UTC with this machine's time zone, Unspecified taken as
/// UTC; sub-millisecond ticks are dropped, rounding toward the past); DateTimeOffset → the UTC
/// datetime of its instant (the offset is dropped); DateOnly → UTC datetime at midnight;
/// TimeSpan and TimeOnly → int64 ticks; UInt64 → int64 when it fits, otherwise Decimal128;
/// Guid is already Binary subtype 0x04; the other types (Decimal128 with its exact bits, and the
/// MongoDB types regex, timestamp, MinKey, MaxKey, code, symbol, DBPointer, undefined) are the
/// standard ones, byte for byte as they were read.
/// </remarks>
public static class StandardBsonWriter
{
    private static readonly UTF8Encoding _strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The standard BSON bytes of one document.</summary>
    public static byte[] ToBytes(BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        using var buffer = new PooledByteBuffer();
        WriteDocument(buffer, document, depth: 1);
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Appends the standard BSON bytes of one document to <paramref name="output"/>.</summary>
    public static void WriteTo(BsonDocument document, IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(output);
        using var buffer = new PooledByteBuffer();
        WriteDocument(buffer, document, depth: 1);
        output.Write(buffer.WrittenSpan);
    }

    /// <summary>Writes the standard BSON bytes of one document to <paramref name="output"/>.</summary>
    public static void WriteTo(BsonDocument document, Stream output)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(output);
        using var buffer = new PooledByteBuffer();
        WriteDocument(buffer, document, depth: 1);
        output.Write(buffer.WrittenSpan);
    }

    private static void WriteDocument(PooledByteBuffer buffer, BsonDocument document, int depth)
    {
        ThrowIfTooDeep(depth);
        var start = buffer.ReserveLength();
        foreach (var (name, value) in document)
        {
            WriteElement(buffer, name, value, depth);
        }

        buffer.WriteByte(0);
        buffer.PatchLength(start);
    }

    private static void WriteArray(PooledByteBuffer buffer, BsonArray array, int depth)
    {
        ThrowIfTooDeep(depth);
        var start = buffer.ReserveLength();
        Span<byte> key = stackalloc byte[11];
        for (var i = 0; i < array.Count; i++)
        {
            i.TryFormat(key, out var written, default, CultureInfo.InvariantCulture);
            WriteItem(buffer, key[..written], array[i], depth);
        }

        buffer.WriteByte(0);
        buffer.PatchLength(start);
    }

    private static void WriteElement(PooledByteBuffer buffer, string name, BsonValue value, int depth)
    {
        if (name.Contains('\0'))
        {
            throw new ArgumentException($"Field name \"{name.Replace("\0", "\\0", StringComparison.Ordinal)}\" contains a NUL character, which standard BSON field names (cstrings) cannot hold.");
        }

        var typePosition = buffer.Length;
        buffer.WriteByte(0);
        WriteCString(buffer, name, "Field name");

        // The type byte precedes the name but depends on the value's mapping, so it is patched in last.
        buffer.Patch(typePosition, WriteValue(buffer, value, depth, name));
    }

    private static void WriteItem(PooledByteBuffer buffer, ReadOnlySpan<byte> utf8Key, BsonValue value, int depth)
    {
        var typePosition = buffer.Length;
        buffer.WriteByte(0);
        buffer.Write(utf8Key);
        buffer.WriteByte(0);
        buffer.Patch(typePosition, WriteValue(buffer, value, depth, name: null));
    }

    private static byte WriteValue(PooledByteBuffer buffer, BsonValue value, int depth, string? name)
    {
        switch (value.Type)
        {
            case BsonType.Null:
                return StandardBsonCodes.Null;
            case BsonType.Double:
                buffer.WriteInt64(BitConverter.DoubleToInt64Bits(value.AsDouble));
                return StandardBsonCodes.Double;
            case BsonType.String:
                WriteString(buffer, value.AsString, name);
                return StandardBsonCodes.String;
            case BsonType.Document:
                WriteDocument(buffer, value.AsDocument, depth + 1);
                return StandardBsonCodes.Document;
            case BsonType.Array:
                WriteArray(buffer, value.AsArray, depth + 1);
                return StandardBsonCodes.Array;
            case BsonType.Binary:
                WriteBinary(buffer, value.AsBinary, (byte)value.BinarySubtype);
                return StandardBsonCodes.Binary;
            case BsonType.ObjectId:
                value.AsObjectId.WriteTo(buffer.GetSpan(ObjectId.Size));
                buffer.Advance(ObjectId.Size);
                return StandardBsonCodes.ObjectId;
            case BsonType.Boolean:
                buffer.WriteByte(value.AsBoolean ? (byte)1 : (byte)0);
                return StandardBsonCodes.Boolean;
            case BsonType.Int32:
                buffer.WriteInt32(value.AsInt32);
                return StandardBsonCodes.Int32;
            case BsonType.Int64:
                buffer.WriteInt64(value.AsInt64);
                return StandardBsonCodes.Int64;
            case BsonType.UInt64:
                return WriteUInt64(buffer, value.AsUInt64);
            case BsonType.Decimal128:
                value.AsDecimal128.WriteTo(buffer.GetSpan(BsonDecimal128.Size));
                buffer.Advance(BsonDecimal128.Size);
                return StandardBsonCodes.Decimal128;
            case BsonType.UtcDateTime:
                buffer.WriteInt64(value.AsUtcDateTimeMilliseconds);
                return StandardBsonCodes.UtcDateTime;
            case BsonType.Undefined:
                return StandardBsonCodes.Undefined;
            case BsonType.MinKey:
                return StandardBsonCodes.MinKey;
            case BsonType.MaxKey:
                return StandardBsonCodes.MaxKey;
            case BsonType.Timestamp:
                buffer.WriteInt64((long)value.AsTimestamp.Value);
                return StandardBsonCodes.Timestamp;
            case BsonType.Regex:
                WriteCString(buffer, value.AsRegex.Pattern, "Regular expression pattern");
                WriteCString(buffer, value.AsRegex.Options, "Regular expression options");
                return StandardBsonCodes.Regex;
            case BsonType.JavaScript:
                WriteString(buffer, value.AsJavaScript.Code, name);
                return StandardBsonCodes.JavaScript;
            case BsonType.Symbol:
                WriteString(buffer, value.AsSymbol.Name, name);
                return StandardBsonCodes.Symbol;
            case BsonType.DbPointer:
                WriteString(buffer, value.AsDbPointer.Namespace, name);
                value.AsDbPointer.Id.WriteTo(buffer.GetSpan(ObjectId.Size));
                buffer.Advance(ObjectId.Size);
                return StandardBsonCodes.DbPointer;
            case BsonType.JavaScriptWithScope:
                var start = buffer.ReserveLength();
                WriteString(buffer, value.AsJavaScriptWithScope.Code, name);
                WriteDocument(buffer, value.AsJavaScriptWithScope.Scope, depth + 1);
                buffer.PatchLength(start);
                return StandardBsonCodes.JavaScriptWithScope;
            case BsonType.DateTime:
                buffer.WriteInt64(ToUnixMilliseconds(ToUtcTicks(value.AsDateTime)));
                return StandardBsonCodes.UtcDateTime;
            case BsonType.DateTimeOffset:
                buffer.WriteInt64(ToUnixMilliseconds(value.AsDateTimeOffset.UtcTicks));
                return StandardBsonCodes.UtcDateTime;
            case BsonType.DateOnly:
                buffer.WriteInt64(ToUnixMilliseconds(value.AsDateOnly.DayNumber * TimeSpan.TicksPerDay));
                return StandardBsonCodes.UtcDateTime;
            case BsonType.TimeSpan:
                buffer.WriteInt64(value.AsTimeSpan.Ticks);
                return StandardBsonCodes.Int64;
            case BsonType.TimeOnly:
                buffer.WriteInt64(value.AsTimeOnly.Ticks);
                return StandardBsonCodes.Int64;
            default:
                throw new ArgumentException($"{Describe(name)} has BSON type {value.Type}, which has no standard BSON mapping.");
        }
    }

    private static void WriteString(PooledByteBuffer buffer, string value, string? name)
    {
        int byteCount;
        try
        {
            byteCount = _strictUtf8.GetByteCount(value);
        }
        catch (EncoderFallbackException)
        {
            throw new ArgumentException($"The string in {Describe(name)} has an unpaired surrogate and cannot be written as UTF-8.");
        }

        buffer.WriteInt32(byteCount + 1);
        var written = _strictUtf8.GetBytes(value, buffer.GetSpan(byteCount));
        buffer.Advance(written);
        buffer.WriteByte(0);
    }

    /// <summary>UTF-8 and a 0x00 terminator; callers have already refused NUL characters.</summary>
    private static void WriteCString(PooledByteBuffer buffer, string value, string what)
    {
        try
        {
            var byteCount = _strictUtf8.GetByteCount(value);
            buffer.Advance(_strictUtf8.GetBytes(value, buffer.GetSpan(byteCount)));
        }
        catch (EncoderFallbackException)
        {
            throw new ArgumentException($"{what} \"{value}\" has an unpaired surrogate and cannot be written as UTF-8.");
        }

        buffer.WriteByte(0);
    }

    private static void WriteBinary(PooledByteBuffer buffer, ReadOnlySpan<byte> bytes, byte subtype)
    {
        if (subtype == StandardBsonCodes.OldBinarySubtype)
        {
            buffer.WriteInt32(bytes.Length + 4);
            buffer.WriteByte(subtype);
            buffer.WriteInt32(bytes.Length);
        }
        else
        {
            buffer.WriteInt32(bytes.Length);
            buffer.WriteByte(subtype);
        }

        buffer.Write(bytes);
    }

    private static byte WriteUInt64(PooledByteBuffer buffer, ulong value)
    {
        if (value <= long.MaxValue)
        {
            buffer.WriteInt64((long)value);
            return StandardBsonCodes.Int64;
        }

        WriteDecimal(buffer, value);
        return StandardBsonCodes.Decimal128;
    }

    private static void WriteDecimal(PooledByteBuffer buffer, decimal value)
    {
        Decimal128Encoding.Write(value, buffer.GetSpan(Decimal128Encoding.Size));
        buffer.Advance(Decimal128Encoding.Size);
    }

    /// <summary>
    /// A Local value is converted with this machine's time zone rules at write time; an
    /// Unspecified value carries no zone, so it is taken as UTC rather than shifted by whichever
    /// machine happens to export it.
    /// </summary>
    private static long ToUtcTicks(DateTime value) =>
        value.Kind == DateTimeKind.Local ? value.ToUniversalTime().Ticks : value.Ticks;

    /// <summary>Whole milliseconds since the Unix epoch, rounding toward the past (so pre-1970 instants never move forward).</summary>
    private static long ToUnixMilliseconds(long utcTicks) =>
        Math.DivRem(utcTicks - StandardBsonCodes.UnixEpochTicks, StandardBsonCodes.TicksPerMillisecond) is var (quotient, remainder) && remainder < 0
            ? quotient - 1
            : quotient;

    private static string Describe(string? name) => name is null ? "an array item" : $"field \"{name}\"";

    private static void ThrowIfTooDeep(int depth)
    {
        if (depth > BsonLimits.MaxDepth)
        {
            throw new ArgumentException($"The document nests deeper than {BsonLimits.MaxDepth} levels.");
        }
    }
}
