using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage.Wal;

/// <summary>A committed frame found by recovery.</summary>
internal readonly record struct RecoveredFrame(uint PageId, long ImageOffset, int Transaction);

/// <summary>What recovery found in a WAL.</summary>
internal sealed class WalScanResult
{
    public bool HeaderValid { get; init; }

    public int PageSize { get; init; }

    public ulong DatabaseId { get; init; }

    public uint Generation { get; init; }

    public List<RecoveredFrame> CommittedFrames { get; } = [];

    public int TransactionCount { get; set; }

    /// <summary>Frames after the last commit, or from the first damaged frame on, that recovery discards.</summary>
    public int DiscardedFrames { get; set; }
}

/// <summary>
/// Reads a WAL back on open. Frames are accepted in order while they carry this generation's
/// salt and their chained checksum holds; the first frame that fails ends the log, and everything
/// after the last commit frame is discarded (an uncommitted or torn tail).
/// A damaged frame is reported as corruption instead when a later, intact frame of the same
/// generation records (in its durable frame count) that the damaged frame had already been
/// flushed: flushed bytes may not change, so that is damage, not a torn write.
/// </summary>
internal static class WalScanner
{
    public static WalScanResult Scan(IStorageDevice device, string databasePath)
    {
        var length = device.Length;
        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        if (length < WalFormat.HeaderSize || device.Read(0, header) < WalFormat.HeaderSize || !header[..8].SequenceEqual(WalFormat.Magic))
        {
            return new WalScanResult();
        }

        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        var generation = BinaryPrimitives.ReadUInt32LittleEndian(header[24..]);
        var salt = BinaryPrimitives.ReadUInt32LittleEndian(header[28..]);
        var headerIntact = WalFormat.HeaderChecksum(header) == Crc32C.Compute(header[..36]);
        var version = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        if (!PageLayout.IsValidPageSize(pageSize))
        {
            return new WalScanResult();
        }

        var reader = new FrameReader(device, pageSize, generation, salt, WalFormat.HeaderChecksum(header));
        if (!headerIntact)
        {
            // The header is flushed before any frame is written, so an intact frame behind a
            // damaged header means the header was damaged after it was durable.
            if (reader.IsIntact(0))
            {
                throw new BLiteCorruptionException(device.Name, null, "the write-ahead log header is damaged but the log holds flushed frames.");
            }

            return new WalScanResult();
        }

        if (version > WalFormat.Version)
        {
            throw new BLiteException($"The write-ahead log of database '{databasePath}' has format version {version}; this BLite reads up to version {WalFormat.Version}.");
        }

        var result = new WalScanResult
        {
            HeaderValid = true,
            PageSize = pageSize,
            DatabaseId = BinaryPrimitives.ReadUInt64LittleEndian(header[16..]),
            Generation = generation,
        };

        var frameCount = (length - WalFormat.HeaderSize) / WalFormat.FrameSize(pageSize);
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
        private readonly int _pageSize;
        private readonly uint _generation;
        private readonly uint _salt;
        private readonly uint _headerChecksum;
        private readonly byte[] _frame;
        private readonly byte[] _previousHeader = new byte[WalFormat.FrameHeaderSize];

        public FrameReader(IStorageDevice device, int pageSize, uint generation, uint salt, uint headerChecksum)
        {
            _device = device;
            _pageSize = pageSize;
            _generation = generation;
            _salt = salt;
            _headerChecksum = headerChecksum;
            _frame = new byte[WalFormat.FrameSize(pageSize)];
        }

        public uint PageId { get; private set; }

        public bool IsCommit { get; private set; }

        public uint DurableCount { get; private set; }

        public long ImageOffset(long index) => FrameOffset(index) + WalFormat.FrameHeaderSize;

        public bool IsIntact(long index)
        {
            var offset = FrameOffset(index);
            var header = _frame.AsSpan(0, WalFormat.FrameHeaderSize);
            if (_device.Read(offset, header) < header.Length
                || WalFormat.FrameGeneration(header) != _generation
                || WalFormat.FrameSalt(header) != _salt)
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
                seed = _headerChecksum;
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

        private long FrameOffset(long index) => WalFormat.HeaderSize + (index * WalFormat.FrameSize(_pageSize));
    }
}
