using System.Buffers.Binary;

namespace BLite.Bson;

// Writers for the standard BSON types that exist for MongoDB interop (docs/format.md, section 1.2).
public ref partial struct BsonSpanWriter
{
    /// <summary>The exact 16 bytes of a Decimal128.</summary>
    public void WriteDecimal128(BsonDecimal128 v)
    {
        v.WriteTo(Reserve(BsonDecimal128.Size));
        _position += BsonDecimal128.Size;
    }

    /// <summary>Standard BSON UTC datetime: int64 milliseconds since the Unix epoch.</summary>
    public void WriteUtcDateTimeMilliseconds(long milliseconds) => WriteInt64(milliseconds);

    public void WriteTimestamp(BsonTimestamp v) => WriteUInt64(v.Value);

    public void WriteRegex(BsonRegex v)
    {
        ArgumentNullException.ThrowIfNull(v);
        WriteString(v.Pattern);
        WriteString(v.Options);
    }

    public void WriteDbPointer(BsonDbPointer v)
    {
        WriteString(v.Namespace);
        WriteObjectId(v.Id);
    }

    /// <summary>
    /// Starts a JavaScript-with-scope value: reserves its int32 length and writes the code. Write
    /// the scope document next, then call <see cref="EndJavaScriptWithScope"/> with the token.
    /// </summary>
    public int BeginJavaScriptWithScope(string code)
    {
        ArgumentNullException.ThrowIfNull(code);
        if (_depth == 0)
        {
            throw new InvalidOperationException("JavaScript with scope is a value: write it inside a document or array.");
        }

        var token = _position;
        Reserve(4);
        _position += 4;
        WriteString(code);
        return token;
    }

    public void EndJavaScriptWithScope(int token)
    {
        if ((uint)token > (uint)(_position - 4))
        {
            ThrowBadToken(token);
        }

        BinaryPrimitives.WriteInt32LittleEndian(_buffer[token..], _position - token);
    }
}
