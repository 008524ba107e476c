using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage.Wal;

/// <summary>A committed frame found by recovery.</summary>
internal readonly record struct RecoveredFrame(uint PageId, long ImageOffset, int Transaction);

/// <summary>The record payload of a committed transaction found by recovery (its record frames' payloads, joined).</summary>
internal readonly record struct RecoveredRecord(int Transaction, byte[] Payload);

/// <summary>What recovery found in a WAL.</summary>
internal sealed class WalScanResult
{
    /// <summary>True when the log's frames could be judged: an intact header, or a damaged one whose frames validate without it.</summary>
    public bool HeaderValid { get; init; }

    public int PageSize { get; init; }

    public ulong DatabaseId { get; init; }

    public uint Generation { get; init; }

    public uint Salt { get; init; }

    /// <summary>The committed page frames.</summary>
    public List<RecoveredFrame> CommittedFrames { get; } = [];

    /// <summary>The committed transactions' record payloads, in commit order.</summary>
    public List<RecoveredRecord> CommittedRecords { get; } = [];

    /// <summary>Every committed frame, page and record frames alike.</summary>
    public uint CommittedFrameCount { get; set; }

    /// <summary>The chained checksum of the last committed frame (the seed of the next frame appended).</summary>
    public uint CommittedChecksum { get; set; }

    public int TransactionCount { get; set; }

    /// <summary>Frames after the last commit, or from the first damaged frame on, that recovery discards.</summary>
    public int DiscardedFrames { get; set; }

    /// <summary>Where the committed frames end: the offset the next frame of this generation would go to.</summary>
    public long CommittedEnd { get; set; } = WalFormat.HeaderSize;
}

/// <summary>
/// Reads a WAL back on open, and modifies nothing. Frames are accepted in order while they carry
/// this generation's salt and their chained checksum holds; the first frame that fails ends the
/// log, and everything after the last commit frame is discarded (an uncommitted or torn tail).
/// A damaged frame is reported as corruption instead when a later, intact frame of the same
/// generation records (in its durable frame count) that the damaged frame had already been
/// flushed: flushed bytes may not change, so that is damage, not a torn write.
/// A damaged header never hides frames: frame 0's chain seed does not depend on the header's
/// bytes, so the frames behind it are validated with the database file's id and page size and
/// recovered exactly; when they cannot be validated but look like flushed pages, the open is
/// refused (docs/format.md, section 3).
/// </summary>
internal static class WalScanner
{
    /// <param name="fileHeader">The database file's fixed header fields, when the file has them (null for a file whose creation never reached its first checkpoint).</param>
    public static WalScanResult Scan(IStorageDevice device, string databasePath, DatabaseHeader? fileHeader)
    {
        var length = device.Length;
        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        if (length < WalFormat.HeaderSize || device.Read(0, header) < WalFormat.HeaderSize)
        {
            // Nothing but (part of) a header that was being written: no frame can follow it.
            return new WalScanResult();
        }

        if (!header[..8].SequenceEqual(WalFormat.Magic) || WalFormat.HeaderChecksum(header) != Crc32C.Compute(header[..36]))
        {
            return ScanBehindDamagedHeader(device, fileHeader);
        }

        var version = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        if (version > WalFormat.Version)
        {
            throw new BLiteException($"The write-ahead log of database '{databasePath}' has format version {version}; this BLite reads up to version {WalFormat.Version}.");
        }

        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        if (version == 0 || !PageLayout.IsValidPageSize(pageSize))
        {
            throw new BLiteCorruptionException(device.Name, null, $"the write-ahead log header passes its checksum but names format version {version} and page size {pageSize}, which BLite never writes.");
        }

        var databaseId = BinaryPrimitives.ReadUInt64LittleEndian(header[16..]);
        var generation = BinaryPrimitives.ReadUInt32LittleEndian(header[24..]);
        var salt = BinaryPrimitives.ReadUInt32LittleEndian(header[28..]);
        var seed = version == WalFormat.HeaderSeededVersion
            ? WalFormat.HeaderChecksum(header)
            : WalFormat.FirstFrameSeed(databaseId, pageSize, generation, salt);
        return ScanFrames(device, new FrameReader(device, pageSize, generation, salt, seed, allowRecords: version > WalFormat.PageFramesOnlyVersion), databaseId);
    }

    /// <summary>
    /// The header fails its magic or checksum. The only innocent way to get there is a power cut
    /// while a restart rewrote it, and then frame 0 is either absent (a new log) or a frame of
    /// the previous generation, which validates on its own and was already checkpointed, so
    /// replaying it changes nothing. Any other damage is after the fact: the frames are recovered
    /// exactly when frame 0 validates, and otherwise the open is refused if anything behind the
    /// header looks like a flushed page, since that may be an acknowledged commit.
    /// </summary>
    private static WalScanResult ScanBehindDamagedHeader(IStorageDevice device, DatabaseHeader? fileHeader)
    {
        if (fileHeader is { } known)
        {
            Span<byte> first = stackalloc byte[WalFormat.FrameHeaderSize];
            if (device.Read(WalFormat.HeaderSize, first) == first.Length)
            {
                var generation = WalFormat.FrameGeneration(first);
                var salt = WalFormat.FrameSalt(first);
                var seed = WalFormat.FirstFrameSeed(known.DatabaseId, known.PageSize, generation, salt);
                var reader = new FrameReader(device, known.PageSize, generation, salt, seed, allowRecords: true);
                if (generation != 0 && reader.IsIntact(WalFormat.HeaderSize, seed))
                {
                    return ScanFrames(device, reader, known.DatabaseId);
                }
            }
        }

        // Without the file's header the page size is unknown too: every size BLite writes is tried.
        var smallest = fileHeader?.PageSize ?? PageLayout.MinPageSize;
        var largest = fileHeader?.PageSize ?? PageLayout.MaxPageSize;
        for (var pageSize = smallest; pageSize <= largest; pageSize *= 2)
        {
            if (FindPageImage(device, pageSize) is { } frameOffset)
            {
                throw new BLiteCorruptionException(
                    device.Name,
                    null,
                    $"the write-ahead log header is damaged and the frame at byte {frameOffset} behind it holds a page image that cannot be validated without it; it may be an acknowledged commit, so the log is neither applied nor discarded. Restore the log or the database from a backup.");
            }
        }

        return new WalScanResult();
    }

    /// <summary>
    /// The offset of the first frame holding a sealed page image (one that passes its own
    /// trailer check), or null. Record frames make frames of different lengths, so every 8-byte
    /// boundary is a possible frame start.
    /// </summary>
    private static long? FindPageImage(IStorageDevice device, int pageSize)
    {
        var frameSize = WalFormat.FrameSize(pageSize);
        var frame = new byte[frameSize];
        foreach (var offset in FrameStarts(device, WalFormat.HeaderSize, frameSize, generation: null, salt: 0))
        {
            if (device.Read(offset, frame) == frameSize
                && WalFormat.FrameGeneration(frame) != 0
                && PageLayout.IsSealed(frame.AsSpan(WalFormat.FrameHeaderSize), WalFormat.FramePageId(frame)))
            {
                return offset;
            }
        }

        return null;
    }

    /// <summary>
    /// The 8-byte boundaries from <paramref name="start"/> on where a frame header could begin:
    /// of <paramref name="generation"/> and <paramref name="salt"/> (a record frame, or a page
    /// frame whose image trailer names the header's page id), or with no generation given, a page
    /// frame of any nonzero generation. Read in large chunks and filtered in memory: it runs
    /// over the whole rest of the log, and most boundaries lie inside page images.
    /// </summary>
    private static IEnumerable<long> FrameStarts(IStorageDevice device, long start, int frameSize, uint? generation, uint salt)
    {
        const int Chunk = 1 << 20;
        var buffer = new byte[Chunk + frameSize];
        var length = device.Length;
        for (var chunkStart = start; chunkStart + WalFormat.FrameHeaderSize <= length; chunkStart += Chunk)
        {
            var read = device.Read(chunkStart, buffer);
            for (var at = 0; at < Chunk && at + WalFormat.FrameHeaderSize <= read; at += 8)
            {
                var header = buffer.AsSpan(at, WalFormat.FrameHeaderSize);
                var frameGeneration = WalFormat.FrameGeneration(header);
                if (generation is { } wanted ? frameGeneration != wanted || WalFormat.FrameSalt(header) != salt : frameGeneration == 0)
                {
                    continue;
                }

                if (WalFormat.FrameIsRecord(header))
                {
                    if (generation is not null)
                    {
                        yield return chunkStart + at;
                    }

                    continue;
                }

                var trailerAt = at + frameSize - PageLayout.TrailerSize;
                if (trailerAt + 4 > read || BinaryPrimitives.ReadUInt32LittleEndian(buffer.AsSpan(trailerAt)) == WalFormat.FramePageId(header))
                {
                    yield return chunkStart + at;
                }
            }
        }
    }

    private static WalScanResult ScanFrames(IStorageDevice device, FrameReader reader, ulong databaseId)
    {
        var result = new WalScanResult
        {
            HeaderValid = true,
            PageSize = reader.PageSize,
            DatabaseId = databaseId,
            Generation = reader.Generation,
            Salt = reader.Salt,
            CommittedChecksum = reader.FirstSeed,
        };

        var pending = new List<RecoveredFrame>();
        var pendingRecords = new List<byte[]>();
        uint pendingFrames = 0;
        var offset = (long)WalFormat.HeaderSize;
        var seed = reader.FirstSeed;
        long index = 0;
        while (reader.IsIntact(offset, seed))
        {
            if (reader.RecordPayload is { } payload)
            {
                pendingRecords.Add(payload);
            }
            else
            {
                pending.Add(new RecoveredFrame(reader.PageId, offset + WalFormat.FrameHeaderSize, result.TransactionCount));
            }

            pendingFrames++;
            index++;
            offset += reader.Length;
            seed = reader.Checksum;
            if (reader.IsCommit)
            {
                result.CommittedFrames.AddRange(pending);
                if (pendingRecords.Count > 0)
                {
                    result.CommittedRecords.Add(new RecoveredRecord(result.TransactionCount, Join(pendingRecords)));
                }

                result.CommittedFrameCount += pendingFrames;
                result.CommittedEnd = offset;
                result.CommittedChecksum = seed;
                pending.Clear();
                pendingRecords.Clear();
                pendingFrames = 0;
                result.TransactionCount++;
            }
        }

        result.DiscardedFrames = (int)pendingFrames;
        if (offset + WalFormat.FrameHeaderSize <= device.Length)
        {
            RefuseIfFlushedFrameIsDamaged(device, reader, index, offset);
        }

        return result;
    }

    private static byte[] Join(List<byte[]> parts)
    {
        if (parts.Count == 1)
        {
            return parts[0];
        }

        var joined = new byte[parts.Sum(part => part.Length)];
        var at = 0;
        foreach (var part in parts)
        {
            part.CopyTo(joined, at);
            at += part.Length;
        }

        return joined;
    }

    /// <summary>
    /// The log ends at frame <paramref name="damaged"/> (at <paramref name="damagedOffset"/>):
    /// refuses when a later frame of this generation, intact in itself, records that frame as
    /// flushed. Frames of different lengths hide where the later ones start, so every 8-byte
    /// boundary past the damaged frame is tried, and each candidate is judged by its own image or
    /// record checksum (its chain cannot be, without the frames before it).
    /// A candidate's durable count is believed only when the frame after it chains from the
    /// candidate's stored checksum. Nothing else covers that count: a frame header can straddle
    /// a sector boundary (frames are not sector-sized), and a torn write can then keep the new
    /// frame's first 24 bytes (generation and salt) beside the old frame's last 8 (durable count
    /// and checksum, always in one sector); with a page image that changed only in sectors the
    /// write also kept, that frame looked intact and its stale count refused a sound log. The
    /// count shares its 8 bytes with the checksum, which a chained successor proves is this
    /// generation's frame's own.
    /// </summary>
    private static void RefuseIfFlushedFrameIsDamaged(IStorageDevice device, FrameReader reader, long damaged, long damagedOffset)
    {
        foreach (var later in FrameStarts(device, damagedOffset + 8, WalFormat.FrameSize(reader.PageSize), reader.Generation, reader.Salt))
        {
            if (reader.IsSelfConsistent(later) && reader.DurableCount > damaged && reader.IsIntact(later + reader.Length, reader.Checksum))
            {
                throw new BLiteCorruptionException(
                    device.Name,
                    null,
                    $"write-ahead log frame {damaged} (at byte {damagedOffset}) fails its checksum although a later frame (at byte {later}) records that it had been flushed; refusing to open rather than lose committed transactions.");
            }
        }
    }

    /// <summary>Reads and checks frames one at a time; the chain seed of a frame is the checksum stored in the frame before it.</summary>
    private sealed class FrameReader
    {
        private readonly IStorageDevice _device;
        private readonly bool _allowRecords;
        private readonly byte[] _frame;
        private byte[] _block = [];

        public FrameReader(IStorageDevice device, int pageSize, uint generation, uint salt, uint firstSeed, bool allowRecords)
        {
            _device = device;
            PageSize = pageSize;
            Generation = generation;
            Salt = salt;
            FirstSeed = firstSeed;
            _allowRecords = allowRecords;
            _frame = new byte[WalFormat.FrameSize(pageSize)];
        }

        public int PageSize { get; }

        public uint Generation { get; }

        public uint Salt { get; }

        public uint FirstSeed { get; }

        public uint PageId { get; private set; }

        public bool IsCommit { get; private set; }

        public uint DurableCount { get; private set; }

        /// <summary>The frame's length, header included.</summary>
        public long Length { get; private set; }

        /// <summary>The frame's stored chained checksum (the next frame's seed).</summary>
        public uint Checksum { get; private set; }

        /// <summary>A record frame's payload; null for a page frame.</summary>
        public byte[]? RecordPayload { get; private set; }

        /// <summary>Whether the frame at <paramref name="offset"/> belongs to this generation, is whole, and chains from <paramref name="seed"/>.</summary>
        public bool IsIntact(long offset, uint seed) =>
            ReadOwnFrame(offset, out var header, out var body) && WalFormat.ChainChecksum(seed, header, body) == WalFormat.FrameChecksum(header);

        /// <summary>Whether the frame at <paramref name="offset"/> belongs to this generation and is whole, its chain unchecked.</summary>
        public bool IsSelfConsistent(long offset) => ReadOwnFrame(offset, out _, out _);

        private bool ReadOwnFrame(long offset, out ReadOnlySpan<byte> header, out ReadOnlySpan<byte> body)
        {
            header = _frame.AsSpan(0, WalFormat.FrameHeaderSize);
            body = default;
            if (_device.Read(offset, _frame.AsSpan(0, WalFormat.FrameHeaderSize)) < WalFormat.FrameHeaderSize
                || WalFormat.FrameGeneration(header) != Generation
                || WalFormat.FrameSalt(header) != Salt)
            {
                return false;
            }

            var pageId = WalFormat.FramePageId(header);
            byte[]? payload = null;
            if (WalFormat.FrameIsRecord(header))
            {
                var payloadLength = WalFormat.RecordPayloadLength(header);
                var blockSize = WalFormat.RecordBlockSize(payloadLength);
                if (!_allowRecords || pageId != WalFormat.RecordPageId || offset + WalFormat.FrameHeaderSize + blockSize > _device.Length)
                {
                    return false;
                }

                if (_block.Length < blockSize)
                {
                    _block = new byte[blockSize];
                }

                var block = _block.AsSpan(0, blockSize);
                if (_device.Read(offset + WalFormat.FrameHeaderSize, block) < blockSize || !WalFormat.IsRecordBlockIntact(block, payloadLength))
                {
                    return false;
                }

                payload = block[..payloadLength].ToArray();
                body = block;
                Length = WalFormat.FrameHeaderSize + blockSize;
            }
            else
            {
                var image = _frame.AsSpan(WalFormat.FrameHeaderSize);
                if (_device.Read(offset + WalFormat.FrameHeaderSize, image) < image.Length || !PageLayout.IsSealed(image, pageId))
                {
                    return false;
                }

                body = image;
                Length = _frame.Length;
            }

            PageId = pageId;
            IsCommit = WalFormat.FrameIsCommit(header);
            DurableCount = WalFormat.FrameDurableCount(header);
            Checksum = WalFormat.FrameChecksum(header);
            RecordPayload = payload;
            return true;
        }
    }
}
