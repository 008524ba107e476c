using System.Buffers.Binary;

namespace BLite.Core.Storage.Paging;

/// <summary>
/// Every page, in the database file and in WAL frames, ends with an 8-byte trailer:
/// <code>
/// offset P-8  uint32  page id (catches a page written to or read from the wrong place)
/// offset P-4  uint32  CRC-32C of bytes [0, P-4): payload and page id
/// </code>
/// The payload is bytes [0, P-8). A never-written (all-zero) page fails the check, so a hole in
/// the file is reported, never read as data.
/// </summary>
internal static class PageLayout
{
    public const int TrailerSize = 8;
    public const int MinPageSize = 4096;
    public const int MaxPageSize = 65536;

    public static int PayloadSize(int pageSize) => pageSize - TrailerSize;

    public static bool IsValidPageSize(int pageSize) =>
        pageSize is >= MinPageSize and <= MaxPageSize && (pageSize & (pageSize - 1)) == 0;

    public static void Seal(Span<byte> page, uint pageId)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(page[^8..], pageId);
        BinaryPrimitives.WriteUInt32LittleEndian(page[^4..], Crc32C.Compute(page[..^4]));
    }

    public static bool IsSealed(ReadOnlySpan<byte> page, uint pageId) =>
        BinaryPrimitives.ReadUInt32LittleEndian(page[^8..]) == pageId
        && BinaryPrimitives.ReadUInt32LittleEndian(page[^4..]) == Crc32C.Compute(page[..^4]);

    public static string DescribeDamage(ReadOnlySpan<byte> page, uint pageId)
    {
        var storedId = BinaryPrimitives.ReadUInt32LittleEndian(page[^8..]);
        return storedId != pageId
            ? $"the page trailer names page {storedId} (misplaced or torn write)"
            : "the page checksum does not match its content";
    }
}
