using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace BLite.Bson;

public ref partial struct BsonSpanReader
{
    /// <summary>
    /// The number of items of the array (or fields of the document, when
    /// <paramref name="entriesHaveFieldIds"/>) at the current position, without moving the reader,
    /// so a deserializer can size its collection exactly. It walks only entry headers and length
    /// prefixes, and checks only what keeps the walk inside the container (type codes, lengths
    /// against the bytes left, the terminator); the read that follows validates every value and
    /// refuses anything else. Malformed input throws <see cref="BsonFormatException"/> with its offset.
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
            var size = EntrySizeAt((BsonType)code, position, end);
            if ((uint)size > (uint)(end - position))
            {
                ThrowTruncated(position, size, end);
            }

            position += size;
            count++;
        }
    }

    /// <summary>
    /// A value's size from its type and, for variable-size types, its length prefix (only its
    /// range is checked here). Strings and documents, the usual collection items, come first.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int EntrySizeAt(BsonType type, int position, int end)
    {
        switch (type)
        {
            case BsonType.String:
            case BsonType.JavaScript:
            case BsonType.Symbol:
                return 4 + PrefixAt(position, end, minimum: 1);
            case BsonType.Document:
            case BsonType.Array:
                return PrefixAt(position, end, minimum: 5);
            case BsonType.Binary:
                return 5 + PrefixAt(position, end, minimum: 0);
            default:
                return ValueSizeAt(type, position, end);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int PrefixAt(int position, int end, int minimum)
    {
        if (end - position < 4)
        {
            ThrowTruncated(position, 4, end);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(_data.Slice(position, 4));
        // The caller checks the whole value against the bytes left; this bound only keeps the
        // size from overflowing.
        if (length < minimum || length > end - position)
        {
            throw new BsonFormatException($"Length {length} is invalid for the {end - position} bytes available", position);
        }

        return length;
    }
}
