using System.Buffers.Binary;
using System.Numerics;
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

        var end = LocatedLength(document, 0, document.Length, minimum: 5);
        if (document[end - 1] != 0)
        {
            throw new BsonFormatException("Document does not end with 0x00", end - 1);
        }

        // Bit (id mod 64) set for every wanted id: most fields fail it with one shift and test,
        // and only the rest are compared with the ids one by one.
        var wanted = 0UL;
        foreach (var fieldId in fieldIds)
        {
            wanted |= 1UL << (fieldId & 63);
        }

        var position = 4;
        var pending = fieldIds.Length == MaxLocatedFields ? ulong.MaxValue : (1UL << fieldIds.Length) - 1;
        var found = 0;
        ref var data = ref MemoryMarshal.GetReference(document);
        ref var shapes = ref MemoryMarshal.GetReference(ElementShapes);
        while (pending != 0)
        {
            // Fewer than a header's three bytes left: the terminator (the last byte is a 0x00,
            // checked above) or a header cut by the end.
            if (end - position < 3)
            {
                EndOfWalk(document, position, end);
                break;
            }

            var code = Unsafe.Add(ref data, position);
            var shape = (sbyte)Unsafe.Add(ref shapes, code);
            var id = Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref data, position + 1));
            id = BitConverter.IsLittleEndian ? id : BinaryPrimitives.ReverseEndianness(id);
            position += 3;
            int size;
            if (shape >= 0)
            {
                size = shape;
            }
            else if (shape >= LastPrefixed)
            {
                // Strings, documents, arrays and binaries: one length prefix gives the size.
                if (end - position < 4)
                {
                    ThrowLocatedTruncated(position, 4, end);
                }

                var length = BinaryPrimitives.ReadInt32LittleEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref data, position), 4));
                if (length < PrefixMinimum(shape) || length > end - position)
                {
                    ThrowInvalidLocatedLength(length, end - position, position);
                }

                size = PrefixOverhead(shape) + length;
            }
            else
            {
                size = UnusualValueSize(document, code, position, end);
            }

            if ((uint)size > (uint)(end - position))
            {
                ThrowLocatedTruncated(position, size, end);
            }

            if (((wanted >> (id & 63)) & 1) != 0 && IndexOfPending(fieldIds, id, pending) is var k and >= 0)
            {
                pending &= ~(1UL << k);
                offsets[k] = position;
                types[k] = (BsonType)code;
                found++;
            }

            position += size;
        }

        // Only the ids still pending are missing: a walk that finds every one marks none.
        for (var missing = pending; missing != 0; missing &= missing - 1)
        {
            offsets[BitOperations.TrailingZeroCount(missing)] = -1;
        }

        return found;
    }

    /// <summary>Where fewer bytes than a header remain: the document's terminator, or else the reason the bytes are malformed.</summary>
    private static void EndOfWalk(ReadOnlySpan<byte> document, int position, int end)
    {
        if (position >= end)
        {
            throw new BsonFormatException("Document has no 0x00 terminator within its declared length", end);
        }

        if (document[position] == 0)
        {
            if (position + 1 != end)
            {
                ThrowEndsEarly(position, end);
            }

            return;
        }

        ThrowLocatedTruncated(position, 3, end);
    }

    /// <summary>
    /// The size of a value the shape table does not give: a terminator or an unknown code where a
    /// header should be (both malformed), or a rare type the full reader sizes.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int UnusualValueSize(ReadOnlySpan<byte> document, byte code, int position, int end)
    {
        var header = position - 3;
        if (code == 0)
        {
            ThrowEndsEarly(header, end);
        }

        if (!IsKnownType(code))
        {
            ThrowUnknownType(code, header);
        }

        return new BsonSpanReader(document[..end]).ValueSizeAt((BsonType)code, position, end);
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

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidLocatedLength(int length, int available, int offset) =>
        throw new BsonFormatException($"Length {length} is invalid for the {available} bytes available", offset);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowEndsEarly(int offset, int end) =>
        throw new BsonFormatException($"Document ends here but its length prefix says it ends at offset {end}", offset);

    // Shapes below zero in ElementShapes; the length-prefixed ones come first, so one comparison
    // tells them from the rest.
    private const sbyte PrefixedString = -1;
    private const sbyte PrefixedContainer = -2;
    private const sbyte PrefixedBinary = -3;
    private const sbyte LastPrefixed = PrefixedBinary;
    private const sbyte Unusual = -4;

    /// <summary>Bytes of a length-prefixed value besides its length: a string's prefix, a binary's prefix and subtype; a container's length counts itself.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int PrefixOverhead(sbyte shape) => shape == PrefixedContainer ? 0 : shape == PrefixedString ? 4 : 5;

    /// <summary>The smallest valid length: a string holds its terminator, a container its prefix and terminator.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int PrefixMinimum(sbyte shape) => shape == PrefixedContainer ? 5 : shape == PrefixedString ? 1 : 0;

    // Indexed by type code, all 256 of them, so a header costs one load and no range check: the
    // size of a value whose type fixes it, a Prefixed* shape for a value whose length prefix gives
    // it, or Unusual (rare types, the terminator, codes that are no type) for the slow path.
    private static ReadOnlySpan<sbyte> ElementShapes =>
    [
        // 0x00 terminator, Double, String, Document, Array, Binary, Undefined, ObjectId, Boolean, UtcDateTime, Null, Regex, DbPointer, JavaScript, Symbol, JavaScriptWithScope
        -4, 8, -1, -2, -2, -3, 0, ObjectId.Size, 1, 8, 0, -4, -4, -1, -1, -4,
        // Int32, Timestamp, Int64, Decimal128, then 0x14-0x1F (no type)
        4, 8, 8, Decimal128Encoding.Size, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,
        // DateTime, DateTimeOffset, TimeSpan, DateOnly, TimeOnly, UInt64, then 0x26-0x2F (no type)
        8, 10, 8, 4, 8, 8, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x30
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x40
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x50
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x60
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 0, // 0x70, MaxKey last
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x80
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0x90
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0xA0
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0xB0
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0xC0
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0xD0
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, // 0xE0
        -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 0, // 0xF0, MinKey last
    ];
}
