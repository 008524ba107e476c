using System.Buffers.Binary;

namespace BLite.Core.Storage.Paging;

/// <summary>
/// Page 0's payload. Magic, version, page size and database id never change after creation; the
/// other fields change only inside write transactions (page 0 travels through the WAL like any page).
/// <code>
/// offset  size  field
///  0      8     magic "BLiteDB\0"
///  8      4     format version (2; in version 1 the page count below was always exact)
/// 12      4     page size in bytes
/// 16      4     page count as of the last commit that wrote page 0: at most the true count,
///               which is the largest of this, the file's length in pages and one past the
///               highest page id committed in the log (StorageEngine.PageCount.cs)
/// 20      4     first free-list trunk page (0 = free list empty)
/// 24      4     free page count (trunk pages included)
/// 28      4     reserved, 0
/// 32      8     database id (random at creation; the WAL header repeats it)
/// 40      ...   reserved, 0
/// </code>
/// </summary>
internal struct DatabaseHeader
{
    public const uint FormatVersion = 2;
    public const int FixedPrefixSize = 40;

    public static ReadOnlySpan<byte> Magic => "BLiteDB\0"u8;

    public uint Version;
    public int PageSize;
    public uint PageCount;
    public uint FreeListHead;
    public uint FreePageCount;
    public ulong DatabaseId;

    public static bool HasMagic(ReadOnlySpan<byte> payload) => payload.Length >= 8 && payload[..8].SequenceEqual(Magic);

    public static DatabaseHeader Read(ReadOnlySpan<byte> payload) => new()
    {
        Version = BinaryPrimitives.ReadUInt32LittleEndian(payload[8..]),
        PageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(payload[12..]),
        PageCount = BinaryPrimitives.ReadUInt32LittleEndian(payload[16..]),
        FreeListHead = BinaryPrimitives.ReadUInt32LittleEndian(payload[20..]),
        FreePageCount = BinaryPrimitives.ReadUInt32LittleEndian(payload[24..]),
        DatabaseId = BinaryPrimitives.ReadUInt64LittleEndian(payload[32..]),
    };

    public readonly void Write(Span<byte> payload)
    {
        Magic.CopyTo(payload);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[8..], Version);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[12..], (uint)PageSize);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[16..], PageCount);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[20..], FreeListHead);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[24..], FreePageCount);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[28..], 0);
        BinaryPrimitives.WriteUInt64LittleEndian(payload[32..], DatabaseId);
    }
}
