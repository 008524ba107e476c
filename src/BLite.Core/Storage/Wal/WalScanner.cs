using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage.Wal;

/// <summary>A committed frame found by recovery.</summary>
internal readonly record struct RecoveredFrame(uint PageId, long ImageOffset, int Transaction);

/// <summary>What recovery found in a WAL.</summary>
internal sealed class WalScanResult
{
    /// <summary>True when the log's frames could be judged: an intact header, or a damaged one whose frames validate without it.</summary>
    public bool HeaderValid { get; init; }

    public int PageSize { get; init; }

    public ulong DatabaseId { get; init; }

    public uint Generation { get; init; }

    public uint Salt { get; init; }

    public List<RecoveredFrame> CommittedFrames { get; } = [];

    public int TransactionCount { get; set; }

    /// <summary>Frames after the last commit, or from the first damaged frame on, that recovery discards.</summary>
    public int DiscardedFrames { get; set; }

    /// <summary>Where the committed frames end: the offset the next frame of this generation would go to.</summary>
    public long CommittedEnd => WalFormat.HeaderSize + ((long)CommittedFrames.Count * WalFormat.FrameSize(PageSize));
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
        return ScanFrames(device, new FrameReader(device, pageSize, generation, salt, seed), databaseId);
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
                var reader = new FrameReader(device, known.PageSize, generation, salt, seed);
                if (generation != 0 && reader.IsIntact(0))
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
            if (FindPageImage(device, pageSize) is { } frame)
            {
                throw new BLiteCorruptionException(
                    device.Name,
                    null,
                    $"the write-ahead log header is damaged and frame {frame} behind it holds a page image that cannot be validated without it; it may be an acknowledged commit, so the log is neither applied nor discarded. Restore the log or the database from a backup.");
            }
        }

        return new WalScanResult();
    }

    /// <summary>The index of the first frame slot holding a sealed page image (one that passes its own trailer check), or null.</summary>
    private static long? FindPageImage(IStorageDevice device, int pageSize)
    {
        var frameSize = WalFormat.FrameSize(pageSize);
        var frame = new byte[frameSize];
        var count = (device.Length - WalFormat.HeaderSize) / frameSize;
        for (long index = 0; index < count; index++)
        {
            if (device.Read(WalFormat.HeaderSize + (index * frameSize), frame) == frameSize
                && WalFormat.FrameGeneration(frame) != 0
                && PageLayout.IsSealed(frame.AsSpan(WalFormat.FrameHeaderSize), WalFormat.FramePageId(frame)))
            {
                return index;
            }
        }

        return null;
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
        };

        var frameCount = (device.Length - WalFormat.HeaderSize) / WalFormat.FrameSize(reader.PageSize);
        var pending = new List<RecoveredFrame>();
        long index = 0;
        for (; index < frameCount; index++)
        {
            if (!reader.IsIntact(index))
            {
                break;
            }

            pending.Add(new RecoveredFrame(reader.PageId, reader.ImageOffset(index), result.TransactionCount));
            if (reader.IsCommit)
            {
                result.CommittedFrames.AddRange(pending);
                pending.Clear();
                result.TransactionCount++;
            }
        }

        result.DiscardedFrames = pending.Count;
        if (index < frameCount)
        {
            RefuseIfFlushedFrameIsDamaged(device, reader, index, frameCount);
        }

        return result;
    }

    private static void RefuseIfFlushedFrameIsDamaged(IStorageDevice device, FrameReader reader, long damaged, long frameCount)
    {
        for (var later = damaged + 1; later < frameCount; later++)
        {
            if (reader.IsIntact(later) && reader.DurableCount > damaged)
            {
                throw new BLiteCorruptionException(
                    device.Name,
                    null,
                    $"write-ahead log frame {damaged} fails its checksum although frame {later} records that it had been flushed; refusing to open rather than lose committed transactions.");
            }
        }
    }

    /// <summary>Reads and checks frames one at a time; the chain seed of frame i is the checksum stored in frame i-1.</summary>
    private sealed class FrameReader
    {
        private readonly IStorageDevice _device;
        private readonly uint _firstSeed;
        private readonly byte[] _frame;
        private readonly byte[] _previousHeader = new byte[WalFormat.FrameHeaderSize];

        public FrameReader(IStorageDevice device, int pageSize, uint generation, uint salt, uint firstSeed)
        {
            _device = device;
            PageSize = pageSize;
            Generation = generation;
            Salt = salt;
            _firstSeed = firstSeed;
            _frame = new byte[WalFormat.FrameSize(pageSize)];
        }

        public int PageSize { get; }

        public uint Generation { get; }

        public uint Salt { get; }

        public uint PageId { get; private set; }

        public bool IsCommit { get; private set; }

        public uint DurableCount { get; private set; }

        public long ImageOffset(long index) => FrameOffset(index) + WalFormat.FrameHeaderSize;

        public bool IsIntact(long index)
        {
            var offset = FrameOffset(index);
            var header = _frame.AsSpan(0, WalFormat.FrameHeaderSize);
            if (_device.Read(offset, header) < header.Length
                || WalFormat.FrameGeneration(header) != Generation
                || WalFormat.FrameSalt(header) != Salt)
            {
                return false;
            }

            if (_device.Read(offset, _frame) < _frame.Length)
            {
                return false;
            }

            uint seed;
            if (index == 0)
            {
                seed = _firstSeed;
            }
            else
            {
                if (_device.Read(FrameOffset(index - 1), _previousHeader) < _previousHeader.Length)
                {
                    return false;
                }

                seed = WalFormat.FrameChecksum(_previousHeader);
            }

            var image = _frame.AsSpan(WalFormat.FrameHeaderSize);
            var pageId = WalFormat.FramePageId(header);
            if (WalFormat.ChainChecksum(seed, header, image) != WalFormat.FrameChecksum(header)
                || !PageLayout.IsSealed(image, pageId))
            {
                return false;
            }

            PageId = pageId;
            IsCommit = WalFormat.FrameIsCommit(header);
            DurableCount = WalFormat.FrameDurableCount(header);
            return true;
        }

        private long FrameOffset(long index) => WalFormat.HeaderSize + (index * WalFormat.FrameSize(PageSize));
    }
}
