namespace BLite.Bson;

public ref partial struct BsonSpanReader
{
    /// <summary>
    /// The number of items of the array (or fields of the document, when
    /// <paramref name="entriesHaveFieldIds"/>) at the current position, without moving the reader,
    /// so a deserializer can size its collection exactly. It walks only the entry headers and
    /// value sizes, validating them as a read would (lengths, type codes, the terminator), and
    /// throws <see cref="BsonFormatException"/> with the offset of a malformed entry. Nested
    /// contents are left to the read that follows.
    /// </summary>
    internal readonly int CountEntries(bool entriesHaveFieldIds)
    {
        var end = _position + PeekContainerLength(_position, _end);
        var headerSize = entriesHaveFieldIds ? 3 : 1;
        var position = _position + 4;
        var count = 0;
        while (true)
        {
            if (position >= end)
            {
                throw new BsonFormatException("Document or array has no 0x00 terminator within its declared length", end);
            }

            var code = _data[position];
            if (code == 0)
            {
                if (position + 1 != end)
                {
                    throw new BsonFormatException($"Document or array ends here but its length prefix says it ends at offset {end}", position);
                }

                return count;
            }

            if (end - position < headerSize)
            {
                ThrowTruncated(position, headerSize, end);
            }

            if (!IsKnownType(code))
            {
                ThrowUnknownType(code, position);
            }

            position += headerSize;
            var size = ValueSizeAt((BsonType)code, position, end);
            if ((uint)size > (uint)(end - position))
            {
                ThrowTruncated(position, size, end);
            }

            position += size;
            count++;
        }
    }
}
