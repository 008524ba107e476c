using System.Buffers.Binary;

namespace BLite.Core.Storage;

/// <summary>
/// A value too large to sit inside a B+ tree leaf, stored in a singly linked chain of pages.
/// Page layout (offsets within the page payload, little-endian):
/// <code>
///  0  u8   kind: 0x20
///  1  u8[3] reserved, zero
///  4  u32  next page id in the chain (0 = last page)
///  8  u32  bytes of value data used in this page
/// 12  ...  value data
/// </code>
/// The total length is kept by whoever references the chain (the leaf cell), so a reader
/// can size its buffer before walking and cross-check the sum of used lengths.
/// </summary>
internal static class OverflowChain
{
    public const byte PageKind = 0x20;
    public const int HeaderSize = 12;

    // The page reader does not expose its file path; corruption found here is raised with this
    // placeholder and the storage layer's own checks name the file.
    internal const string CorruptionSource = "(page reader)";

    private const int NextOffset = 4;
    private const int UsedOffset = 8;

    /// <summary>Value bytes one chain page holds.</summary>
    public static int DataCapacity(int pagePayloadSize) => pagePayloadSize - HeaderSize;

    /// <summary>Pages a value of <paramref name="length"/> bytes needs.</summary>
    public static int PageCount(int length, int pagePayloadSize)
    {
        var capacity = DataCapacity(pagePayloadSize);
        return (int)(((long)length + capacity - 1) / capacity);
    }

    /// <summary>Writes <paramref name="value"/> (non-empty) into new pages and returns the first page id.</summary>
    public static uint Write(IPageWriter pages, ReadOnlySpan<byte> value)
    {
        ArgumentNullException.ThrowIfNull(pages);
        if (value.IsEmpty)
            throw new ArgumentException("An overflow chain holds at least one byte.", nameof(value));
        var capacity = DataCapacity(pages.PagePayloadSize);
        var first = pages.AllocatePage();
        var current = first;
        var remaining = value;
        while (true)
        {
            var page = pages.WritePage(current).Span;
            var used = Math.Min(capacity, remaining.Length);
            page[..HeaderSize].Clear();
            page[0] = PageKind;
            BinaryPrimitives.WriteUInt32LittleEndian(page[UsedOffset..], (uint)used);
            remaining[..used].CopyTo(page[HeaderSize..]);
            remaining = remaining[used..];
            if (remaining.IsEmpty)
                return first;
            var next = pages.AllocatePage();
            BinaryPrimitives.WriteUInt32LittleEndian(pages.WritePage(current).Span[NextOffset..], next);
            current = next;
        }
    }

    /// <summary>Reads a whole chain of <paramref name="length"/> bytes into a new array.</summary>
    public static byte[] Read(IPageReader pages, uint firstPage, int length)
    {
        var result = GC.AllocateUninitializedArray<byte>(length);
        Read(pages, firstPage, result);
        return result;
    }

    /// <summary>Reads the chain into <paramref name="destination"/>, whose length is the value's length.</summary>
    public static void Read(IPageReader pages, uint firstPage, Span<byte> destination) => Read(pages, firstPage, destination, prefixOnly: false);

    /// <summary>Reads the first bytes of the chain into <paramref name="destination"/> (no longer than the value), walking only the pages that hold them.</summary>
    public static void ReadPrefix(IPageReader pages, uint firstPage, Span<byte> destination) => Read(pages, firstPage, destination, prefixOnly: true);

    private static void Read(IPageReader pages, uint firstPage, Span<byte> destination, bool prefixOnly)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var current = firstPage;
        var remaining = destination;
        var capacity = DataCapacity(pages.PagePayloadSize);
        while (!remaining.IsEmpty)
        {
            if (current == 0)
                ThrowBroken(current, "the chain ends before the value's length");
            var page = pages.ReadPage(current).Span;
            var used = (int)BinaryPrimitives.ReadUInt32LittleEndian(page[UsedOffset..]);
            if (page[0] != PageKind || used <= 0 || used > capacity || (used > remaining.Length && !prefixOnly))
                ThrowBroken(current, "the page is not a well-formed overflow page of this chain");
            var copied = Math.Min(used, remaining.Length);
            page.Slice(HeaderSize, copied).CopyTo(remaining);
            remaining = remaining[copied..];
            current = BinaryPrimitives.ReadUInt32LittleEndian(page[NextOffset..]);
        }
    }

    /// <summary>Frees every page of the chain.</summary>
    public static void Free(IPageWriter pages, uint firstPage)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var current = firstPage;
        var guard = 0L;
        while (current != 0)
        {
            var page = pages.ReadPage(current).Span;
            if (page[0] != PageKind || ++guard > uint.MaxValue)
                ThrowBroken(current, "the page is not an overflow page");
            var next = BinaryPrimitives.ReadUInt32LittleEndian(page[NextOffset..]);
            pages.FreePage(current);
            current = next;
        }
    }

    /// <summary>
    /// Walks a chain for a structural check: every page must be an overflow page not seen
    /// before (per <paramref name="claim"/>), and the used lengths must add up to
    /// <paramref name="length"/>. Returns the first problem found, or null.
    /// </summary>
    public static string? Check(IPageReader pages, uint firstPage, long length, Func<uint, bool> claim)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(claim);
        var capacity = DataCapacity(pages.PagePayloadSize);
        var current = firstPage;
        long total = 0;
        while (current != 0)
        {
            if (!claim(current))
                return $"overflow page {current} is reached more than once";
            var page = pages.ReadPage(current).Span;
            if (page[0] != PageKind)
                return $"page {current} in an overflow chain has kind 0x{page[0]:X2}";
            var used = BinaryPrimitives.ReadUInt32LittleEndian(page[UsedOffset..]);
            if (used == 0 || used > capacity)
                return $"overflow page {current} claims {used} used bytes (capacity {capacity})";
            total += used;
            if (total > length)
                return $"overflow chain from page {firstPage} holds more than the {length} bytes its cell records";
            current = BinaryPrimitives.ReadUInt32LittleEndian(page[NextOffset..]);
        }
        return total == length ? null : $"overflow chain from page {firstPage} holds {total} bytes, its cell records {length}";
    }

    private static void ThrowBroken(uint pageId, string detail) =>
        throw new BLiteCorruptionException(CorruptionSource, pageId, "broken overflow chain: " + detail + ".");
}
