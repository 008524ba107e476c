using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Bson;

public ref partial struct BsonSpanReader
{
    /// <summary>The most field ids one <see cref="LocateFields"/> call looks for.</summary>
    public const int MaxLocatedFields = 64;

    /// <summary>
    /// Where the values of the top-level fields <paramref name="fieldIds"/> of
    /// <paramref name="document"/> start, and their types, without decoding anything:
    /// a projection reads a few members of a large document this way. <paramref name="offsets"/>[k]
    /// is the offset in <paramref name="document"/> of the first value with
    /// <paramref name="fieldIds"/>[k], or -1 when the document has no such field; a stored null is
    /// located like any other value, with type <see cref="BsonType.Null"/>. The walk reads only
    /// element headers and length prefixes, checks what keeps it inside the document (type codes,
    /// lengths, the terminator), and stops once every id is found, so the fields after the last
    /// one asked for are never visited; a reader then reads each value, validating it. Malformed
    /// input throws <see cref="BsonFormatException"/> with its offset. Returns how many of the ids
    /// were found.
    /// </summary>
    /// <remarks>Static, so a lookup pays for no reader (whose nesting stack is hundreds of bytes) to find its fields.</remarks>
    public static int LocateFields(ReadOnlySpan<byte> document, ReadOnlySpan<ushort> fieldIds, Span<int> offsets, Span<BsonType> types)
    {
        if (fieldIds.Length > MaxLocatedFields)
        {
            throw new ArgumentOutOfRangeException(nameof(fieldIds), fieldIds.Length, $"At most {MaxLocatedFields} fields can be located in one walk.");
        }

        if (offsets.Length < fieldIds.Length || types.Length < fieldIds.Length)
        {
            throw new ArgumentException("There must be an offset and a type slot for every field id.", nameof(offsets));
        }

        offsets[..fieldIds.Length].Fill(-1);
        var end = LocatedLength(document, 0, document.Length, minimum: 5);
        if (document[end - 1] != 0)
        {
            throw new BsonFormatException("Document does not end with 0x00", end - 1);
        }

        var position = 4;
        var pending = fieldIds.Length == MaxLocatedFields ? ulong.MaxValue : (1UL << fieldIds.Length) - 1;
        var found = 0;
        ref var data = ref MemoryMarshal.GetReference(document);
        while (pending != 0)
        {
            if (position >= end)
            {
                throw new BsonFormatException("Document has no 0x00 terminator within its declared length", end);
            }

            var code = Unsafe.Add(ref data, position);
            if (code == 0)
            {
                if (position + 1 != end)
                {
                    throw new BsonFormatException($"Document ends here but its length prefix says it ends at offset {end}", position);
                }

                break;
            }

            if (end - position < 3)
            {
                ThrowLocatedTruncated(position, 3, end);
            }

            if (!IsKnownType(code))
            {
                ThrowUnknownType(code, position);
            }

            var id = Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref data, position + 1));
            id = BitConverter.IsLittleEndian ? id : BinaryPrimitives.ReverseEndianness(id);
            position += 3;
            var k = IndexOfPending(fieldIds, id, pending);
            if (k >= 0)
            {
                pending &= ~(1UL << k);
                offsets[k] = position;
                types[k] = (BsonType)code;
                found++;
            }

            var size = (BsonType)code switch
            {
                BsonType.String or BsonType.JavaScript or BsonType.Symbol => 4 + LocatedLength(document, position, end, minimum: 1),
                BsonType.Document or BsonType.Array => LocatedLength(document, position, end, minimum: 5),
                BsonType.Binary => 5 + LocatedLength(document, position, end, minimum: 0),
                _ => FixedValueSize((BsonType)code) is var fixedSize and >= 0 ? fixedSize : RareValueSize(document, (BsonType)code, position, end),
            };
            if ((uint)size > (uint)(end - position))
            {
                ThrowLocatedTruncated(position, size, end);
            }

            position += size;
        }

        return found;
    }

    /// <summary>A length prefix at <paramref name="position"/>, checked only against the bytes before <paramref name="end"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int LocatedLength(ReadOnlySpan<byte> document, int position, int end, int minimum)
    {
        if (end - position < 4)
        {
            ThrowLocatedTruncated(position, 4, end);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(document.Slice(position, 4));
        if (length < minimum || length > end - position)
        {
            throw new BsonFormatException($"Length {length} is invalid for the {end - position} bytes available", position);
        }

        return length;
    }

    /// <summary>Regular expressions, DB pointers and code with scope: the full reader sizes them, apart so the common walk never builds one.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int RareValueSize(ReadOnlySpan<byte> document, BsonType type, int position, int end) =>
        new BsonSpanReader(document[..end]).ValueSizeAt(type, position, end);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowLocatedTruncated(int offset, long needed, int end) =>
        throw new BsonFormatException($"Input is truncated: {needed} bytes needed but only {end - offset} remain in the enclosing document", offset);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int IndexOfPending(ReadOnlySpan<ushort> fieldIds, ushort id, ulong pending)
    {
        for (var k = 0; k < fieldIds.Length; k++)
        {
            if (fieldIds[k] == id && (pending & (1UL << k)) != 0)
            {
                return k;
            }
        }

        return -1;
    }

    /// <summary>The size of a value whose type fixes it, or -1 when a length prefix gives it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int FixedValueSize(BsonType type) => (byte)type < FixedSizes.Length ? FixedSizes[(byte)type] : type is BsonType.MinKey or BsonType.MaxKey ? 0 : -1;

    // Indexed by type code: the fixed size of the value, or -1 (a length-prefixed value, or not a
    // known code; IsKnownType runs first).
    private static ReadOnlySpan<sbyte> FixedSizes =>
    [
        -1, // 0x00 (terminator)
        8, // Double
        -1, // String
        -1, // Document
        -1, // Array
        -1, // Binary
        0, // Undefined
        ObjectId.Size, // ObjectId
        1, // Boolean
        8, // UtcDateTime
        0, // Null
        -1, // Regex
        -1, // DbPointer
        -1, // JavaScript
        -1, // Symbol
        -1, // JavaScriptWithScope
        4, // Int32
        8, // Timestamp
        8, // Int64
        Decimal128Encoding.Size, // Decimal128
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 0x14-0x1F (not codes)
        8, // DateTime
        10, // DateTimeOffset
        8, // TimeSpan
        4, // DateOnly
        8, // TimeOnly
        8, // UInt64
    ];
}
