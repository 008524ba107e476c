using System.Buffers.Binary;

namespace BLite.Core.Collections.Catalog;

/// <summary>
/// The per-collection counters page: written on every insert and delete, so it is a page of its
/// own rather than a catalog-tree record (one 16-byte in-place write instead of a tree update).
/// Payload offsets, little-endian:
/// <code>
///  0  u32  magic 0x54534342 ("BCST")
///  4  u32  collection id (cross-checked by Verify)
///  8  i64  number of documents
/// 16  i64  last value handed out by the collection's sequence (0 = none yet)
/// </code>
/// </summary>
internal static class CollectionStats
{
    public const uint Magic = 0x54534342;

    private const int MagicOffset = 0;
    private const int CollectionIdOffset = 4;
    private const int CountOffset = 8;
    private const int SequenceOffset = 16;

    public static void Initialise(Span<byte> page, uint collectionId)
    {
        page[..24].Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(page[MagicOffset..], Magic);
        BinaryPrimitives.WriteUInt32LittleEndian(page[CollectionIdOffset..], collectionId);
    }

    public static bool HasMagic(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadUInt32LittleEndian(page[MagicOffset..]) == Magic;

    public static uint ReadCollectionId(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadUInt32LittleEndian(page[CollectionIdOffset..]);

    public static long ReadCount(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadInt64LittleEndian(page[CountOffset..]);

    public static void WriteCount(Span<byte> page, long count) =>
        BinaryPrimitives.WriteInt64LittleEndian(page[CountOffset..], count);

    public static long ReadSequence(ReadOnlySpan<byte> page) =>
        BinaryPrimitives.ReadInt64LittleEndian(page[SequenceOffset..]);

    public static void WriteSequence(Span<byte> page, long value) =>
        BinaryPrimitives.WriteInt64LittleEndian(page[SequenceOffset..], value);
}
