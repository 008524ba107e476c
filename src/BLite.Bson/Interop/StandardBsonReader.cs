using System.Buffers.Binary;
using System.Globalization;
using System.Text;

namespace BLite.Bson.Interop;

/// <summary>
/// Reads standard BSON (bsonspec.org) into <see cref="BsonDocument"/>s: MongoDB driver output,
/// mongodump .bson files, bsondump input. Every read is bounds-checked against the enclosing
/// document; malformed bytes throw <see cref="BsonFormatException"/> with the byte offset of the
/// problem, never another exception and never a partial document.
/// </summary>
/// <remarks>
/// Mapping (docs/cli.md, "Standard BSON mapping"): UTC datetime 0x09 → DateTime of Kind Utc, or
/// <see cref="BsonType.UtcDateTime"/> for an instant outside .NET's DateTime range; Binary subtype
/// 0x02 loses its nested length (written back on export); every other type, deprecated ones
/// included, maps to the BLite type of the same code with its exact bytes. Array keys are not
/// checked (the spec tells readers to accept any); duplicate field names are refused.
/// </remarks>
public static partial class StandardBsonReader
{
    private const int MinDocumentLength = 5;

    private static readonly UTF8Encoding _strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>Reads one document that fills <paramref name="bson"/> exactly.</summary>
    public static BsonDocument ReadDocument(ReadOnlySpan<byte> bson)
    {
        var document = ReadDocument(bson, out var consumed);
        if (consumed != bson.Length)
        {
            throw new BsonFormatException($"{bson.Length - consumed} byte(s) follow the document", consumed);
        }

        return document;
    }

    /// <summary>Reads the document at the start of <paramref name="bson"/>; trailing bytes are left for the caller.</summary>
    public static BsonDocument ReadDocument(ReadOnlySpan<byte> bson, out int bytesConsumed)
    {
        var reader = new Cursor(bson, baseOffset: 0);
        var document = reader.ReadDocument(bson.Length, depth: 1);
        bytesConsumed = reader.Position;
        return document;
    }

    /// <summary>
    /// A bounds-checked walk over one buffer. <c>end</c> arguments are the enclosing container's
    /// end, so a length that points past its parent is caught where it is read.
    /// </summary>
    private ref struct Cursor
    {
        private readonly ReadOnlySpan<byte> _bytes;
        private readonly long _baseOffset;
        private int _position;

        public Cursor(ReadOnlySpan<byte> bytes, long baseOffset)
        {
            _bytes = bytes;
            _baseOffset = baseOffset;
        }

        public readonly int Position => _position;

        public BsonDocument ReadDocument(int end, int depth)
        {
            var documentEnd = ReadContainerStart(end, depth, "document");
            var document = new BsonDocument();
            while (true)
            {
                var typeOffset = _position;
                var type = ReadTypeByte(documentEnd);
                if (type == 0)
                {
                    ExpectEnd(documentEnd, "document");
                    return document;
                }

                var nameOffset = _position;
                var name = ReadFieldName(documentEnd);
                if (document.ContainsKey(name))
                {
                    throw Error($"the document has field \"{name}\" twice", nameOffset);
                }

                document.Add(name, ReadValue(type, typeOffset, documentEnd, depth));
            }
        }

        private BsonArray ReadArray(int end, int depth)
        {
            var arrayEnd = ReadContainerStart(end, depth, "array");
            var array = new BsonArray();
            while (true)
            {
                var typeOffset = _position;
                var type = ReadTypeByte(arrayEnd);
                if (type == 0)
                {
                    ExpectEnd(arrayEnd, "array");
                    return array;
                }

                // The BSON spec tells readers to accept degenerate keys: only the order counts.
                ReadCString(arrayEnd, "array key");
                array.Add(ReadValue(type, typeOffset, arrayEnd, depth));
            }
        }

        private BsonValue ReadValue(byte type, int typeOffset, int end, int depth)
        {
            switch (type)
            {
                case StandardBsonCodes.Double:
                    return BitConverter.Int64BitsToDouble(ReadInt64(end));
                case StandardBsonCodes.String:
                    return ReadString(end);
                case StandardBsonCodes.Document:
                    return ReadDocument(end, depth + 1);
                case StandardBsonCodes.Array:
                    return ReadArray(end, depth + 1);
                case StandardBsonCodes.Binary:
                    return ReadBinary(end);
                case StandardBsonCodes.ObjectId:
                    return new ObjectId(Take(ObjectId.Size, end, "ObjectId"));
                case StandardBsonCodes.Boolean:
                    return ReadBoolean(end);
                case StandardBsonCodes.UtcDateTime:
                    return ReadUtcDateTime(end);
                case StandardBsonCodes.Null:
                    return BsonValue.Null;
                case StandardBsonCodes.Int32:
                    return ReadInt32(end);
                case StandardBsonCodes.Int64:
                    return ReadInt64(end);
                case StandardBsonCodes.Decimal128:
                    return BsonDecimal128.ReadFrom(Take(BsonDecimal128.Size, end, "Decimal128"));
                case StandardBsonCodes.Undefined:
                    return BsonValue.Undefined;
                case StandardBsonCodes.MinKey:
                    return BsonValue.MinKey;
                case StandardBsonCodes.MaxKey:
                    return BsonValue.MaxKey;
                case StandardBsonCodes.Timestamp:
                    return BsonTimestamp.FromValue(BinaryPrimitives.ReadUInt64LittleEndian(Take(8, end, "timestamp")));
                case StandardBsonCodes.Regex:
                    var pattern = ReadCStringValue(end, "regex pattern");
                    return new BsonRegex(pattern, ReadCStringValue(end, "regex options"));
                case StandardBsonCodes.JavaScript:
                    return new BsonJavaScript(ReadString(end));
                case StandardBsonCodes.Symbol:
                    return new BsonSymbol(ReadString(end));
                case StandardBsonCodes.DbPointer:
                    var ns = ReadString(end);
                    return new BsonDbPointer(ns, new ObjectId(Take(ObjectId.Size, end, "DBPointer ObjectId")));
                case StandardBsonCodes.JavaScriptWithScope:
                    return ReadJavaScriptWithScope(end, depth);
                default:
                    throw Error($"unknown element type 0x{type:X2}", typeOffset);
            }
        }

        private BsonJavaScriptWithScope ReadJavaScriptWithScope(int end, int depth)
        {
            var start = _position;
            var length = ReadInt32(end);
            if (length < 14 || length > end - start)
            {
                throw Error($"JavaScript with scope length {length} is below 14 or runs past the enclosing document ({end - start} byte(s) left)", start);
            }

            var valueEnd = start + length;
            var code = ReadString(valueEnd);
            var scope = ReadDocument(valueEnd, depth + 1);
            if (_position != valueEnd)
            {
                throw Error($"JavaScript with scope ends {valueEnd - _position} byte(s) before its declared length", _position);
            }

            return new BsonJavaScriptWithScope(code, scope);
        }

        private string ReadCStringValue(int end, string what)
        {
            var offset = _position;
            return Decode(ReadCString(end, what), offset, what);
        }

        private int ReadContainerStart(int end, int depth, string what)
        {
            var start = _position;
            if (depth > BsonLimits.MaxDepth)
            {
                throw Error($"the {what} nests deeper than {BsonLimits.MaxDepth} levels", start);
            }

            var length = ReadInt32(end);
            if (length < MinDocumentLength || length > end - start)
            {
                throw Error($"{what} length {length} is below {MinDocumentLength} or runs past the {(depth == 1 ? "input" : "enclosing document")} ({end - start} byte(s) left)", start);
            }

            return start + length;
        }

        private byte ReadTypeByte(int end)
        {
            if (_position >= end)
            {
                throw Error("the document ends without its 0x00 terminator", _position);
            }

            return _bytes[_position++];
        }

        private readonly void ExpectEnd(int end, string what)
        {
            if (_position != end)
            {
                throw Error($"the {what}'s 0x00 terminator comes {end - _position} byte(s) before its declared end", _position - 1);
            }
        }

        private string ReadFieldName(int end)
        {
            var offset = _position;
            return Decode(ReadCString(end, "field name"), offset, "field name");
        }

        private ReadOnlySpan<byte> ReadCString(int end, string what)
        {
            var start = _position;
            var terminator = _bytes[start..end].IndexOf((byte)0);
            if (terminator < 0)
            {
                throw Error($"the {what} has no 0x00 terminator before the end of its document", start);
            }

            _position = start + terminator + 1;
            return _bytes.Slice(start, terminator);
        }

        private string ReadString(int end)
        {
            var start = _position;
            var length = ReadInt32(end);
            if (length < 1 || length > end - _position)
            {
                throw Error($"string length {length} is below 1 or runs past the enclosing document", start);
            }

            var bytes = Take(length, end, "string");
            if (bytes[^1] != 0)
            {
                throw Error("the string does not end with 0x00", start);
            }

            return Decode(bytes[..^1], start + 4, "string");
        }

        private BsonValue ReadBinary(int end)
        {
            var start = _position;
            var length = ReadInt32(end);
            if (length < 0 || length > end - _position - 1)
            {
                throw Error($"binary length {length} is negative or runs past the enclosing document", start);
            }

            var subtype = Take(1, end, "binary subtype")[0];
            var data = Take(length, end, "binary");
            if (subtype == StandardBsonCodes.OldBinarySubtype)
            {
                if (data.Length < 4 || BinaryPrimitives.ReadInt32LittleEndian(data) != data.Length - 4)
                {
                    throw Error("binary subtype 0x02 must hold an int32 length equal to the bytes that follow it", start + 5);
                }

                data = data[4..];
            }

            return BsonValue.FromBinary(data, (BsonBinarySubtype)subtype);
        }

        private bool ReadBoolean(int end)
        {
            var offset = _position;
            return Take(1, end, "boolean")[0] switch
            {
                0 => false,
                1 => true,
                var other => throw Error($"boolean byte 0x{other:X2} is neither 0x00 nor 0x01", offset),
            };
        }

        private BsonValue ReadUtcDateTime(int end) => BsonValue.FromUnixMilliseconds(ReadInt64(end));

        private int ReadInt32(int end) => BinaryPrimitives.ReadInt32LittleEndian(Take(4, end, "int32"));

        private long ReadInt64(int end) => BinaryPrimitives.ReadInt64LittleEndian(Take(8, end, "8-byte value"));

        private ReadOnlySpan<byte> Take(int count, int end, string what)
        {
            if (count > end - _position)
            {
                throw Error($"the {what} needs {count} byte(s); only {end - _position} remain in the enclosing document", _position);
            }

            var slice = _bytes.Slice(_position, count);
            _position += count;
            return slice;
        }

        private readonly string Decode(ReadOnlySpan<byte> utf8, int offset, string what)
        {
            try
            {
                return _strictUtf8.GetString(utf8);
            }
            catch (DecoderFallbackException)
            {
                throw Error($"the {what} is not valid UTF-8", offset);
            }
        }

        private readonly BsonFormatException Error(string message, int offset) =>
            new("Standard BSON: " + message, _baseOffset + offset);

        private static string Describe(ReadOnlySpan<byte> key) =>
            key.Length > 20 ? Encoding.UTF8.GetString(key[..20]) + "..." : Encoding.UTF8.GetString(key);
    }
}
