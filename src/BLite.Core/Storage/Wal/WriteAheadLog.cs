using System.Buffers;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Wal;

/// <summary>
/// Appends transactions to the WAL device. Only the holder of the engine's writer slot calls
/// <see cref="Append"/> and <see cref="Restart"/>, so the append state needs no lock; the engine
/// publishes <see cref="End"/> to other threads under its own lock.
/// </summary>
internal sealed class WriteAheadLog
{
    /// <summary>Room for one record frame's padding and trailer (<see cref="WalFormat.RecordBlockTailSize"/>).</summary>
    private const int MaxRecordTail = 16;

    private readonly IStorageDevice _device;
    private readonly int _pageSize;
    private readonly ulong _databaseId;
    private readonly List<ReadOnlyMemory<byte>> _segments = [];
    private readonly LogPreallocator _space;
    private uint _salt;
    private uint _lastChecksum;

    /// <param name="preallocationLimit">
    /// 0 to let the file grow by each append; otherwise the size up to which the file is kept
    /// zero-filled ahead of the appends (<see cref="LogPreallocator"/>), by a sixteenth of it
    /// (from 64 KiB to 4 MiB).
    /// </param>
    /// <param name="fillsInline">Fill on the appender's thread (tests that number I/O operations).</param>
    public WriteAheadLog(IStorageDevice device, int pageSize, ulong databaseId, long preallocationLimit, bool fillsInline = false)
    {
        _device = device;
        _pageSize = pageSize;
        _databaseId = databaseId;
        _space = new LogPreallocator(device, preallocationLimit, Math.Clamp(preallocationLimit / 16, MinimumAhead, MaximumAhead), fillsInline);
    }

    private const long MinimumAhead = 64 * 1024;
    private const long MaximumAhead = 4 * 1024 * 1024;

    public int FrameSize => WalFormat.FrameSize(_pageSize);

    /// <summary>Offset where the next frame goes.</summary>
    public long End { get; private set; } = WalFormat.HeaderSize;

    public uint FrameCount { get; private set; }

    public uint Generation { get; private set; }

    /// <summary>
    /// Starts a new generation: a fresh header with a new generation number and salt, flushed, so
    /// frames of every earlier generation (still physically present further on) can never be
    /// mistaken for frames of this one.
    /// </summary>
    public void Restart(uint generation)
    {
        Generation = generation;
        _salt = (uint)Random.Shared.Next() ^ ((uint)Random.Shared.Next() << 1);
        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        WalFormat.WriteHeader(header, _pageSize, _databaseId, Generation, _salt);
        _device.Write(0, header);
        _device.Flush();
        _lastChecksum = WalFormat.FirstFrameSeed(_databaseId, _pageSize, Generation, _salt);
        End = WalFormat.HeaderSize;
        FrameCount = 0;
    }

    /// <summary>
    /// Continues from a recovered log, so a checkpoint can copy its frames before the restart.
    /// Appending to it is allowed only after <see cref="DiscardRecoveredTail"/>.
    /// </summary>
    public void AdoptRecovered(uint generation, uint salt, uint lastChecksum, uint frameCount, long end)
    {
        Generation = generation;
        _salt = salt;
        _lastChecksum = lastChecksum;
        FrameCount = frameCount;
        End = end;
    }

    /// <summary>
    /// Cuts an adopted log after its committed frames and flushes, so the torn or uncommitted
    /// frames recovery discarded can never be read as part of what is appended next (their
    /// durable counts would vouch for frames they never saw).
    /// </summary>
    public void DiscardRecoveredTail()
    {
        _space.Truncate(End);
        _device.Flush();
    }

    /// <summary>
    /// Cuts the file to its header. Only for a log whose frames are all of earlier generations
    /// (just restarted), so nothing in it is needed: at close, and after one huge transaction
    /// stretched it.
    /// </summary>
    public void TruncateToHeader()
    {
        System.Diagnostics.Debug.Assert(FrameCount == 0, "Only an empty generation is cut.");
        _space.Truncate(WalFormat.HeaderSize);
    }

    /// <summary>Stops zero-filling ahead, once a piece being written is done: the device is about to close.</summary>
    public void StopPreallocating() => _space.Stop();

    /// <summary>The zero-filling ahead of the appends (tests and the engine's statistics read it).</summary>
    internal LogPreallocator Space => _space;

    /// <summary>
    /// Writes one transaction as frames in a single gathered write: first record frames carrying
    /// <paramref name="records"/> (none when it is empty), then one frame per page, the last frame
    /// carrying the commit flag. Stores in <paramref name="imageOffsets"/> where each image landed.
    /// Returns the number of bytes appended.
    /// </summary>
    public long Append(ReadOnlySpan<uint> pageIds, ReadOnlySpan<byte[]> images, ReadOnlyMemory<byte> records, long seq, uint durableFrames, Span<long> imageOffsets)
    {
        var recordFrames = (records.Length + WalFormat.MaxRecordPayload - 1) / WalFormat.MaxRecordPayload;
        var count = recordFrames + pageIds.Length;
        var headers = ArrayPool<byte>.Shared.Rent(count * WalFormat.FrameHeaderSize);
        var tails = recordFrames == 0 ? null : ArrayPool<byte>.Shared.Rent(recordFrames * MaxRecordTail);
        try
        {
            _segments.Clear();
            var checksum = _lastChecksum;
            var offset = End;
            for (var i = 0; i < count; i++)
            {
                var header = headers.AsSpan(i * WalFormat.FrameHeaderSize, WalFormat.FrameHeaderSize);
                var commit = i == count - 1;
                _segments.Add(headers.AsMemory(i * WalFormat.FrameHeaderSize, WalFormat.FrameHeaderSize));
                if (i < recordFrames)
                {
                    // The payload goes out from where it lies; only its padding and trailer are written here.
                    var payload = records.Slice(i * WalFormat.MaxRecordPayload, Math.Min(WalFormat.MaxRecordPayload, records.Length - (i * WalFormat.MaxRecordPayload)));
                    var tail = tails.AsMemory(i * MaxRecordTail, WalFormat.RecordBlockTailSize(payload.Length));
                    WalFormat.WriteRecordBlockTail(tail.Span, payload.Span);
                    WalFormat.WriteRecordFrameHeader(header, payload.Length, commit, seq, Generation, _salt, durableFrames);
                    checksum = WalFormat.ChainChecksum(checksum, header, tail.Span);
                    _segments.Add(payload);
                    _segments.Add(tail);
                    offset += WalFormat.FrameHeaderSize + payload.Length + tail.Length;
                }
                else
                {
                    var image = images[i - recordFrames];
                    WalFormat.WriteFrameHeader(header, pageIds[i - recordFrames], commit, seq, Generation, _salt, durableFrames);
                    imageOffsets[i - recordFrames] = offset + WalFormat.FrameHeaderSize;
                    checksum = WalFormat.ChainChecksum(checksum, header, image);
                    _segments.Add(image);
                    offset += WalFormat.FrameHeaderSize + image.Length;
                }

                WalFormat.SetFrameChecksum(header, checksum);
            }

            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.FramesBuilt = CommitPhaseClock.Now();
            }

            _space.BeforeAppend(offset);
            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.FillerDone = CommitPhaseClock.Now();
                CommitPhaseClock.PieceInFlightAtWrite = _space.PieceInFlight;
                CommitPhaseClock.PiecesBeforeWrite = _space.PiecesStarted;
            }

            _device.Write(End, _segments);
            if (CommitPhaseClock.Enabled)
            {
                CommitPhaseClock.Written = CommitPhaseClock.Now();
                CommitPhaseClock.PiecesAfterWrite = _space.PiecesStarted;
            }

            var appended = offset - End;
            End = offset;
            FrameCount += (uint)count;
            _lastChecksum = checksum;
            return appended;
        }
        finally
        {
            _segments.Clear();
            ArrayPool<byte>.Shared.Return(headers);
            if (tails is not null)
            {
                ArrayPool<byte>.Shared.Return(tails);
            }
        }
    }
}
