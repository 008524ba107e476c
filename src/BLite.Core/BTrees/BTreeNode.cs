using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace BLite.Core.BTrees;

/// <summary>
/// Byte layout of a B+ tree node page (offsets within the page payload, little-endian):
/// <code>
///  0  u8   kind: 0x10 leaf, 0x11 branch
///  1  u8   reserved, zero
///  2  u16  cell count
///  4  u16  cell area start: offset of the lowest cell byte (the payload size when empty)
///  6  u16  fragmented bytes: dead bytes inside the cell area left by removed cells
///  8  u32  leaf: previous leaf page id; branch: leftmost child page id (0 = none)
/// 12  u32  leaf: next leaf page id (0 = none); branch: zero
/// 16  u16[count]  slot directory: offset of each cell, in ascending key order
///     ...  free space ...
///     cells, packed from the end of the payload downwards
/// </code>
/// Leaf cell: u16 key length, u32 value word (bit 31 set: the value lives in an overflow chain;
/// bits 0..30: value length), key bytes, then the value bytes or the u32 first overflow page.
/// Branch cell: u16 key length, u32 child page id, key bytes. In a branch, cell i's child holds
/// the keys &gt;= key i (and &lt; key i+1); the leftmost child holds the keys &lt; key 0.
/// </summary>
internal static partial class BTreeNode
{
    public const byte LeafKind = 0x10;
    public const byte BranchKind = 0x11;
    public const int HeaderSize = 16;
    public const int SlotSize = 2;
    public const int CellHeaderSize = 6;
    public const int OverflowReferenceSize = 4;
    public const uint OverflowFlag = 0x8000_0000;

    private const int KindOffset = 0;
    private const int CountOffset = 2;
    private const int CellAreaOffset = 4;
    private const int FragmentedOffset = 6;
    private const int FirstLinkOffset = 8;
    private const int SecondLinkOffset = 12;

    public static void Initialize(Span<byte> page, byte kind)
    {
        page[..HeaderSize].Clear();
        page[KindOffset] = kind;
        SetCellAreaStart(page, page.Length);
    }

    public static byte Kind(ReadOnlySpan<byte> page) => page[KindOffset];

    public static bool IsLeaf(ReadOnlySpan<byte> page) => page[KindOffset] == LeafKind;

    public static int Count(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt16LittleEndian(page[CountOffset..]);

    public static int CellAreaStart(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt16LittleEndian(page[CellAreaOffset..]);

    public static int Fragmented(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt16LittleEndian(page[FragmentedOffset..]);

    /// <summary>Leaf: previous leaf. Branch: leftmost child.</summary>
    public static uint FirstLink(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt32LittleEndian(page[FirstLinkOffset..]);

    /// <summary>Leaf: next leaf.</summary>
    public static uint SecondLink(ReadOnlySpan<byte> page) => BinaryPrimitives.ReadUInt32LittleEndian(page[SecondLinkOffset..]);

    public static void SetFirstLink(Span<byte> page, uint pageId) => BinaryPrimitives.WriteUInt32LittleEndian(page[FirstLinkOffset..], pageId);

    public static void SetSecondLink(Span<byte> page, uint pageId) => BinaryPrimitives.WriteUInt32LittleEndian(page[SecondLinkOffset..], pageId);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CellOffset(ReadOnlySpan<byte> page, int index) =>
        BinaryPrimitives.ReadUInt16LittleEndian(page[(HeaderSize + index * SlotSize)..]);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ReadOnlySpan<byte> Key(ReadOnlySpan<byte> page, int index)
    {
        var offset = CellOffset(page, index);
        var length = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        return page.Slice(offset + CellHeaderSize, length);
    }

    /// <summary>Leaf only: value length and whether it lives in an overflow chain.</summary>
    public static int ValueLength(ReadOnlySpan<byte> page, int index, out bool overflow)
    {
        var word = BinaryPrimitives.ReadUInt32LittleEndian(page[(CellOffset(page, index) + 2)..]);
        overflow = (word & OverflowFlag) != 0;
        return (int)(word & ~OverflowFlag);
    }

    /// <summary>Leaf only: where the inline value (or the 4-byte overflow page id) starts.</summary>
    public static int ValueOffset(ReadOnlySpan<byte> page, int index)
    {
        var offset = CellOffset(page, index);
        return offset + CellHeaderSize + BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
    }

    public static uint OverflowPage(ReadOnlySpan<byte> page, int index) =>
        BinaryPrimitives.ReadUInt32LittleEndian(page[ValueOffset(page, index)..]);

    /// <summary>Branch only: child 0 is the leftmost child, child i+1 is cell i's child.</summary>
    public static uint Child(ReadOnlySpan<byte> page, int childIndex) =>
        childIndex == 0
            ? FirstLink(page)
            : BinaryPrimitives.ReadUInt32LittleEndian(page[(CellOffset(page, childIndex - 1) + 2)..]);

    public static int CellSize(ReadOnlySpan<byte> page, int index) => CellSizeAt(page, CellOffset(page, index), IsLeaf(page));

    public static int CellSizeAt(ReadOnlySpan<byte> page, int offset, bool leaf)
    {
        var keyLength = BinaryPrimitives.ReadUInt16LittleEndian(page[offset..]);
        if (!leaf)
            return CellHeaderSize + keyLength;
        var word = BinaryPrimitives.ReadUInt32LittleEndian(page[(offset + 2)..]);
        var valueBytes = (word & OverflowFlag) != 0 ? OverflowReferenceSize : (int)(word & ~OverflowFlag);
        return CellHeaderSize + keyLength + valueBytes;
    }

    public static ReadOnlySpan<byte> Cell(ReadOnlySpan<byte> page, int index)
    {
        var offset = CellOffset(page, index);
        return page.Slice(offset, CellSizeAt(page, offset, IsLeaf(page)));
    }

    /// <summary>Bytes a new cell could use, counting its slot, if the page were compacted.</summary>
    public static int FreeSpace(ReadOnlySpan<byte> page) =>
        CellAreaStart(page) - HeaderSize - Count(page) * SlotSize + Fragmented(page);

    /// <summary>Bytes used by slots and live cells: the fill that merge and redistribution balance.</summary>
    public static int UsedSpace(ReadOnlySpan<byte> page) => page.Length - HeaderSize - FreeSpace(page);

    /// <summary>Makes room for a cell of <paramref name="cellSize"/> bytes at slot <paramref name="index"/> and returns it, or an empty span when the page is full.</summary>
    public static Span<byte> TryInsertCell(Span<byte> page, int index, int cellSize)
    {
        var count = Count(page);
        if (FreeSpace(page) < cellSize + SlotSize)
            return default;
        var slotsEnd = HeaderSize + count * SlotSize;
        if (CellAreaStart(page) - slotsEnd < cellSize + SlotSize)
            Compact(page);

        var offset = CellAreaStart(page) - cellSize;
        SetCellAreaStart(page, offset);
        var slotPosition = HeaderSize + index * SlotSize;
        page[slotPosition..slotsEnd].CopyTo(page[(slotPosition + SlotSize)..]);
        BinaryPrimitives.WriteUInt16LittleEndian(page[slotPosition..], (ushort)offset);
        BinaryPrimitives.WriteUInt16LittleEndian(page[CountOffset..], (ushort)(count + 1));
        return page.Slice(offset, cellSize);
    }

    /// <summary>Adds a cell after the last one; the page must have been sized for it (used when rebuilding pages).</summary>
    public static void AppendCell(Span<byte> page, ReadOnlySpan<byte> cell)
    {
        var destination = TryInsertCell(page, Count(page), cell.Length);
        if (destination.IsEmpty)
            throw new InvalidOperationException("B+ tree node rebuild overflowed its page.");
        cell.CopyTo(destination);
    }

    public static void RemoveCell(Span<byte> page, int index)
    {
        var count = Count(page);
        var offset = CellOffset(page, index);
        var size = CellSizeAt(page, offset, IsLeaf(page));
        if (offset == CellAreaStart(page))
            SetCellAreaStart(page, offset + size);
        else
            BinaryPrimitives.WriteUInt16LittleEndian(page[FragmentedOffset..], (ushort)(Fragmented(page) + size));
        var slotPosition = HeaderSize + index * SlotSize;
        var slotsEnd = HeaderSize + count * SlotSize;
        page[(slotPosition + SlotSize)..slotsEnd].CopyTo(page[slotPosition..]);
        BinaryPrimitives.WriteUInt16LittleEndian(page[CountOffset..], (ushort)(count - 1));
        if (count == 1)
        {
            SetCellAreaStart(page, page.Length);
            BinaryPrimitives.WriteUInt16LittleEndian(page[FragmentedOffset..], 0);
        }
    }

    public static void WriteLeafCell(Span<byte> destination, ReadOnlySpan<byte> key, uint valueWord)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)key.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[2..], valueWord);
        key.CopyTo(destination[CellHeaderSize..]);
    }

    public static void WriteBranchCell(Span<byte> destination, ReadOnlySpan<byte> key, uint child)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)key.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[2..], child);
        key.CopyTo(destination[CellHeaderSize..]);
    }

    /// <summary>Branch cell bytes: key length, child, key. Also used to read a key or child out of a copied cell.</summary>
    public static ReadOnlySpan<byte> CellKey(ReadOnlySpan<byte> cell) =>
        cell.Slice(CellHeaderSize, BinaryPrimitives.ReadUInt16LittleEndian(cell));

    public static uint CellChild(ReadOnlySpan<byte> cell) => BinaryPrimitives.ReadUInt32LittleEndian(cell[2..]);

    /// <summary>Leaf cell: the overflow page it references, or 0 for an inline value.</summary>
    public static uint CellOverflowPage(ReadOnlySpan<byte> cell)
    {
        var word = BinaryPrimitives.ReadUInt32LittleEndian(cell[2..]);
        if ((word & OverflowFlag) == 0)
            return 0;
        return BinaryPrimitives.ReadUInt32LittleEndian(cell[(CellHeaderSize + BinaryPrimitives.ReadUInt16LittleEndian(cell))..]);
    }

    // Rewrites the cells contiguously at the end of the page so the free space is one gap.
    private static void Compact(Span<byte> page)
    {
        var count = Count(page);
        var leaf = IsLeaf(page);
        var scratch = ArrayPool<byte>.Shared.Rent(page.Length);
        try
        {
            page.CopyTo(scratch);
            var end = page.Length;
            for (var i = 0; i < count; i++)
            {
                var offset = CellOffset(scratch.AsSpan(0, page.Length), i);
                var size = CellSizeAt(scratch, offset, leaf);
                end -= size;
                scratch.AsSpan(offset, size).CopyTo(page[end..]);
                BinaryPrimitives.WriteUInt16LittleEndian(page[(HeaderSize + i * SlotSize)..], (ushort)end);
            }
            SetCellAreaStart(page, end);
            BinaryPrimitives.WriteUInt16LittleEndian(page[FragmentedOffset..], 0);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }

    private static void SetCellAreaStart(Span<byte> page, int offset) =>
        BinaryPrimitives.WriteUInt16LittleEndian(page[CellAreaOffset..], (ushort)offset);
}
