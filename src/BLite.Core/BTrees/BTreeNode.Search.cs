using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Core.BTrees;

internal static partial class BTreeNode
{
    /// <summary>First index whose key is &gt;= <paramref name="key"/>; <paramref name="found"/> when equal.</summary>
    /// <remarks>
    /// A search key of at most 16 bytes (point reads by ObjectId, Guid or number) is turned into
    /// words once, and a stored key as short is compared word-wise rather than by a call per probe.
    /// </remarks>
    public static int LowerBound(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key, out bool found) =>
        key.Length <= ShortKey.MaxLength ? LowerBoundShort(page, key, out found) : LowerBoundChecked(page, key, out found);

    /// <summary>Branch only: the child whose subtree may hold <paramref name="key"/> (count of keys &lt;= it).</summary>
    public static int ChildIndexFor(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key)
    {
        var index = LowerBound(page, key, out var found);
        return found ? index + 1 : index;
    }

    /// <summary>
    /// The search for a short key, reading slots and stored keys in place: each probe checks once
    /// that its cell's key lies inside the page, instead of once per slice and load. A page whose
    /// slots or cells point outside it is corrupt; the checked search then meets the same bad
    /// offset and throws as it always did.
    /// </summary>
    private static int LowerBoundShort(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key, out bool found)
    {
        var search = new ShortKey(key);
        var count = Count(page);
        if (HeaderSize + (count * SlotSize) > page.Length)
        {
            return LowerBoundChecked(page, key, out found);
        }

        ref var start = ref MemoryMarshal.GetReference(page);
        var low = 0;
        var high = count - 1;
        while (low <= high)
        {
            var middle = (low + high) >>> 1;
            int offset = ReadUInt16(ref Unsafe.Add(ref start, HeaderSize + (middle * SlotSize)));
            if (offset > page.Length - CellHeaderSize)
            {
                return LowerBoundChecked(page, key, out found);
            }

            int length = ReadUInt16(ref Unsafe.Add(ref start, offset));
            var keyStart = offset + CellHeaderSize;
            if (length > page.Length - keyStart)
            {
                return LowerBoundChecked(page, key, out found);
            }

            var comparison = length <= ShortKey.MaxLength
                ? search.CompareFrom(ref Unsafe.Add(ref start, keyStart), length)
                : page.Slice(keyStart, length).SequenceCompareTo(key);
            if (comparison == 0)
            {
                found = true;
                return middle;
            }

            if (comparison < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        found = false;
        return low;
    }

    /// <summary>The search through the checked accessors: every key length, and any page however malformed.</summary>
    private static int LowerBoundChecked(ReadOnlySpan<byte> page, ReadOnlySpan<byte> key, out bool found)
    {
        var isShort = key.Length <= ShortKey.MaxLength;
        var search = isShort ? new ShortKey(key) : default;
        var low = 0;
        var high = Count(page) - 1;
        while (low <= high)
        {
            var middle = (low + high) >>> 1;
            var stored = Key(page, middle);
            var comparison = isShort && stored.Length <= ShortKey.MaxLength ? search.CompareFrom(stored) : stored.SequenceCompareTo(key);
            if (comparison == 0)
            {
                found = true;
                return middle;
            }

            if (comparison < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        found = false;
        return low;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ushort ReadUInt16(ref byte source)
    {
        var value = Unsafe.ReadUnaligned<ushort>(ref source);
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }
}
