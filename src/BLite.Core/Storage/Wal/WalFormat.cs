using System.Buffers.Binary;

namespace BLite.Core.Storage.Wal;

/// <summary>
/// Byte layout of <c>name.blite-wal</c>. A header, then frames back to back.
/// <code>
/// WAL header (40 bytes)
///  0  8  magic "BLiteWAL"
///  8  4  format version (1)
/// 12  4  page size
/// 16  8  database id (same as the database header's)
/// 24  4  generation (incremented at every restart of the log)
/// 28  4  salt (random at every restart)
/// 32  4  reserved, 0
/// 36  4  CRC-32C of bytes [0, 36)
///
/// Frame (32-byte header + one page image)
///  0  4  page id
///  4  4  flags: bit 0 = commit (last frame of a transaction)
///  8  8  commit sequence of the transaction
/// 16  4  generation  (must equal the header's)
/// 20  4  salt        (must equal the header's)
/// 24  4  durable frame count: frames of this generation known flushed when this frame was written
/// 28  4  checksum: CRC-32C continued from the previous frame's stored checksum (the header's
///        for the first frame) over frame bytes [0, 28) and then the image's 8-byte trailer
///        (page id and page checksum; the trailer's own CRC covers the rest of the image)
/// 32  P  page image, with its own page trailer
/// </code>
/// </summary>
internal static class WalFormat
{
    public const int HeaderSize = 40;
    public const int FrameHeaderSize = 32;
    public const uint Version = 1;
    public const uint CommitFlag = 1;

    public static ReadOnlySpan<byte> Magic => "BLiteWAL"u8;

    public static int FrameSize(int pageSize) => FrameHeaderSize + pageSize;

    public static void WriteHeader(Span<byte> header, int pageSize, ulong databaseId, uint generation, uint salt)
    {
        header[..HeaderSize].Clear();
        Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt32LittleEndian(header[8..], Version);
        BinaryPrimitives.WriteUInt32LittleEndian(header[12..], (uint)pageSize);
        BinaryPrimitives.WriteUInt64LittleEndian(header[16..], databaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(header[24..], generation);
        BinaryPrimitives.WriteUInt32LittleEndian(header[28..], salt);
        BinaryPrimitives.WriteUInt32LittleEndian(header[36..], Crc32C.Compute(header[..36]));
    }

    public static uint HeaderChecksum(ReadOnlySpan<byte> header) => BinaryPrimitives.ReadUInt32LittleEndian(header[36..]);

    public static void WriteFrameHeader(Span<byte> frame, uint pageId, bool commit, long seq, uint generation, uint salt, uint durableFrames)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(frame, pageId);
        BinaryPrimitives.WriteUInt32LittleEndian(frame[4..], commit ? CommitFlag : 0);
        BinaryPrimitives.WriteUInt64LittleEndian(frame[8..], (ulong)seq);
        BinaryPrimitives.WriteUInt32LittleEndian(frame[16..], generation);
        BinaryPrimitives.WriteUInt32LittleEndian(frame[20..], salt);
        BinaryPrimitives.WriteUInt32LittleEndian(frame[24..], durableFrames);
    }

    /// <summary>
    /// The image is covered through its own trailer (page id and the CRC of its payload), which
    /// recovery checks separately; chaining over the trailer instead of the whole image binds the
    /// frame to exactly that image at half the checksum cost per committed page.
    /// </summary>
    public static uint ChainChecksum(uint previous, ReadOnlySpan<byte> frameHeader, ReadOnlySpan<byte> image) =>
        Crc32C.Append(Crc32C.Append(previous, frameHeader[..28]), image[^8..]);

    public static void SetFrameChecksum(Span<byte> frameHeader, uint checksum) =>
        BinaryPrimitives.WriteUInt32LittleEndian(frameHeader[28..], checksum);

    public static uint FrameChecksum(ReadOnlySpan<byte> frameHeader) => BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[28..]);

    public static uint FramePageId(ReadOnlySpan<byte> frameHeader) => BinaryPrimitives.ReadUInt32LittleEndian(frameHeader);

    public static bool FrameIsCommit(ReadOnlySpan<byte> frameHeader) =>
        (BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[4..]) & CommitFlag) != 0;

    public static uint FrameGeneration(ReadOnlySpan<byte> frameHeader) => BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[16..]);

    public static uint FrameSalt(ReadOnlySpan<byte> frameHeader) => BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[20..]);

    public static uint FrameDurableCount(ReadOnlySpan<byte> frameHeader) => BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[24..]);
}
