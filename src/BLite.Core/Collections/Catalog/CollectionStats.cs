using System.Buffers.Binary;

namespace BLite.Core.Collections.Catalog;

/// <summary>
/// The per-collection counters page: a page of its own rather than a catalog-tree record, so a
/// change is one in-place write instead of a tree update. The document count is exact only while
/// the pending flag is clear: inserts and deletes keep the count as an in-memory counter of the
/// engine (keyed by this page's id) and only set the flag, once per checkpoint interval; the
/// checkpoint writes the count back and clears the flag, and after a crash the open recounts
/// (docs/storage.md, "Counters"). The sequence is written here by every commit that moves it.
/// Payload offsets, little-endian:
/// <code>
///  0  u32  magic 0x54534342 ("BCST")
///  4  u32  collection id (cross-checked by Verify)
///  8  i64  number of documents (exact when the pending flag is clear)
/// 16  i64  last value handed out by the collection's sequence (0 = none yet)
/// 24  u32  flags: bit 0 = count pending (the engine's counter holds the count)
/// </code>
/// </summary>
internal static class CollectionStats
{
    public const uint Magic = 0x54534342;

    private const int MagicOffset = 0;
    private const int CollectionIdOffset = 4;
    private const int CountOffset = 8;
    private const int SequenceOffset = 16;
    private const int FlagsOffset = 24;
    private const uint CountPendingFlag = 1;

    public static void Initialise(Span<byte> page, uint collectionId)
    {
        page[..28].Clear();
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

    public static bool IsCountPending(ReadOnlySpan<byte> page) =>
        (BinaryPrimitives.ReadUInt32LittleEndian(page[FlagsOffset..]) & CountPendingFlag) != 0;

    public static void SetCountPending(Span<byte> page, bool pending)
    {
        var flags = BinaryPrimitives.ReadUInt32LittleEndian(page[FlagsOffset..]);
        BinaryPrimitives.WriteUInt32LittleEndian(page[FlagsOffset..], pending ? flags | CountPendingFlag : flags & ~CountPendingFlag);
    }
}
