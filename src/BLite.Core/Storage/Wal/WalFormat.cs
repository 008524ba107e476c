using System.Buffers.Binary;

namespace BLite.Core.Storage.Wal;

/// <summary>
/// Byte layout of <c>name.blite-wal</c>. A header, then frames back to back.
/// <code>
/// WAL header (40 bytes)
///  0  8  magic "BLiteWAL"
///  8  4  format version (3; version 2 had page frames only; version 1 seeded frame 0's
///        checksum with the header's CRC)
/// 12  4  page size
/// 16  8  database id (same as the database header's)
/// 24  4  generation (incremented at every restart of the log)
/// 28  4  salt (random at every restart)
/// 32  4  reserved, 0
/// 36  4  CRC-32C of bytes [0, 36)
///
/// Page frame (32-byte header + one page image)
///  0  4  page id
///  4  4  flags: bit 0 = commit (last frame of a transaction), bit 1 = record frame (below),
///        bits 8-31 = a record frame's payload length
///  8  8  commit sequence of the transaction
/// 16  4  generation  (must equal the header's)
/// 20  4  salt        (must equal the header's)
/// 24  4  durable frame count: frames of this generation known flushed when this frame was written
/// 28  4  checksum: CRC-32C continued from the previous frame's stored checksum (for the first
///        frame, from <see cref="FirstFrameSeed"/>, which depends on the database id, page size,
///        generation and salt but not on the header's bytes) over frame bytes [0, 28) and then
///        the image's 8-byte trailer
///        (page id and page checksum; the trailer's own CRC covers the rest of the image)
/// 32  P  page image, with its own page trailer
///
/// Record frame (32-byte header + a block of 8 + n bytes rounded up to 8): bytes a layer above
/// the pages logs with the transaction (the change journal's events, docs/changefeed.md), so
/// they need not travel as page images. Page id is <see cref="RecordPageId"/>; the header's
/// fields are as above, with the payload length n in the flags' bits 8-31. The block's last 8
/// bytes are its trailer, chained into the frame checksum as a page image's trailer is:
///  0  n  payload
///  n  p  zero padding to a multiple of 8
///  …  4  payload length n
///  …  4  CRC-32C of the payload
/// </code>
/// A transaction's record frames precede its page frames.
/// </summary>
internal static class WalFormat
{
    public const int HeaderSize = 40;
    public const int FrameHeaderSize = 32;
    public const uint Version = 3;

    /// <summary>The version whose frames are all page frames of one size; still read, never written.</summary>
    public const uint PageFramesOnlyVersion = 2;

    /// <summary>The first version, whose frame 0 was chained from the header's stored CRC; still read, never written.</summary>
    public const uint HeaderSeededVersion = 1;
    public const uint CommitFlag = 1;
    public const uint RecordFlag = 2;

    /// <summary>The page id field of a record frame: never a page's (a file never reaches 2^32 - 1 pages).</summary>
    public const uint RecordPageId = uint.MaxValue;

    /// <summary>The largest payload one record frame carries (its length has 24 bits); longer ones take several frames.</summary>
    public const int MaxRecordPayload = (1 << 24) - 1;

    public const int RecordTrailerSize = 8;

    public static ReadOnlySpan<byte> Magic => "BLiteWAL"u8;

    public static int FrameSize(int pageSize) => FrameHeaderSize + pageSize;

    /// <summary>The bytes a record frame carrying <paramref name="payloadLength"/> bytes takes, header included.</summary>
    public static int RecordFrameSize(int payloadLength) => FrameHeaderSize + RecordBlockSize(payloadLength);

    public static int RecordBlockSize(int payloadLength) => ((payloadLength + 7) & ~7) + RecordTrailerSize;

    /// <summary>Whether the frame header announces a record frame.</summary>
    public static bool FrameIsRecord(ReadOnlySpan<byte> frameHeader) =>
        (BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[4..]) & RecordFlag) != 0;

    /// <summary>A record frame's payload length, as its header states it.</summary>
    public static int RecordPayloadLength(ReadOnlySpan<byte> frameHeader) =>
        (int)(BinaryPrimitives.ReadUInt32LittleEndian(frameHeader[4..]) >> 8);

    /// <summary>The length of the frame whose header this is: a page frame's, or a record frame's from its stated payload length.</summary>
    public static long FrameLength(ReadOnlySpan<byte> frameHeader, int pageSize) =>
        FrameIsRecord(frameHeader) ? RecordFrameSize(RecordPayloadLength(frameHeader)) : FrameSize(pageSize);

    public static void WriteRecordFrameHeader(Span<byte> frame, int payloadLength, bool commit, long seq, uint generation, uint salt, uint durableFrames)
    {
        WriteFrameHeader(frame, RecordPageId, commit, seq, generation, salt, durableFrames);
        BinaryPrimitives.WriteUInt32LittleEndian(frame[4..], (commit ? CommitFlag : 0) | RecordFlag | ((uint)payloadLength << 8));
    }

    /// <summary>The bytes of a record block after its payload: the zero padding and the trailer (at most 15).</summary>
    public static int RecordBlockTailSize(int payloadLength) => RecordBlockSize(payloadLength) - payloadLength;

    /// <summary>
    /// Writes what follows <paramref name="payload"/> in its record block: zero padding, and the
    /// trailer (length and CRC). The writer sends the payload from where it lies, then this tail.
    /// </summary>
    public static void WriteRecordBlockTail(Span<byte> tail, ReadOnlySpan<byte> payload)
    {
        tail[..^RecordTrailerSize].Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(tail[^RecordTrailerSize..], (uint)payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(tail[^4..], Crc32C.Compute(payload));
    }

    /// <summary>Whether a record block is whole: its trailer repeats the header's length, and the payload matches its CRC.</summary>
    public static bool IsRecordBlockIntact(ReadOnlySpan<byte> block, int payloadLength) =>
        block.Length == RecordBlockSize(payloadLength)
        && BinaryPrimitives.ReadUInt32LittleEndian(block[^RecordTrailerSize..]) == (uint)payloadLength
        && BinaryPrimitives.ReadUInt32LittleEndian(block[^4..]) == Crc32C.Compute(block[..payloadLength]);

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

    /// <summary>
    /// The chain seed of frame 0. It is computed from values the frame itself (generation, salt)
    /// and the database file (id, page size) also hold, so a log whose header was damaged after
    /// the fact can still be validated frame by frame and recovered exactly; binding the database
    /// id in keeps another database's log from validating.
    /// </summary>
    public static uint FirstFrameSeed(ulong databaseId, int pageSize, uint generation, uint salt)
    {
        Span<byte> seed = stackalloc byte[20];
        BinaryPrimitives.WriteUInt64LittleEndian(seed, databaseId);
        BinaryPrimitives.WriteUInt32LittleEndian(seed[8..], (uint)pageSize);
        BinaryPrimitives.WriteUInt32LittleEndian(seed[12..], generation);
        BinaryPrimitives.WriteUInt32LittleEndian(seed[16..], salt);
        return Crc32C.Compute(seed);
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
    /// The image (or a record block) is covered through its own trailer (page id and the CRC of its payload), which
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
