using System.Buffers;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Wal;

/// <summary>
/// Appends transactions to the WAL device. Only the holder of the engine's writer slot calls
/// <see cref="Append"/> and <see cref="Restart"/>, so the append state needs no lock; the engine
/// publishes <see cref="End"/> to other threads under its own lock.
/// </summary>
internal sealed class WriteAheadLog
{
    private const long MinimumExtension = 256 * 1024;

    /// <summary>
    /// The most one commit extends the log by: the commit's own flush writes the zeros out, so an
    /// extension of megabytes (the doubling once reached 8 MiB) made that one commit many times
    /// slower than the others.
    /// </summary>
    private const long MaximumExtension = 1024 * 1024;

    /// <summary>Room for one record frame's padding and trailer (<see cref="WalFormat.RecordBlockTailSize"/>).</summary>
    private const int MaxRecordTail = 16;
    private static readonly byte[] ZeroBlock = new byte[64 * 1024];

    private readonly IStorageDevice _device;
    private readonly int _pageSize;
    private readonly ulong _databaseId;
    private readonly List<ReadOnlyMemory<byte>> _segments = [];
    private readonly long _preallocationLimit;
    private uint _salt;
    private uint _lastChecksum;
    private long _allocated;

    /// <param name="preallocationLimit">
    /// 0 to let the file grow by each append; otherwise the size up to which the file is extended
    /// with zeros ahead of the appends (see <see cref="ExtendAhead"/>).
    /// </param>
    public WriteAheadLog(IStorageDevice device, int pageSize, ulong databaseId, long preallocationLimit)
    {
        _device = device;
        _pageSize = pageSize;
        _databaseId = databaseId;
        _preallocationLimit = preallocationLimit;
    }

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
        _allocated = _device.Length;
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
        _allocated = _device.Length;
    }

    /// <summary>
    /// Cuts an adopted log after its committed frames and flushes, so the torn or uncommitted
    /// frames recovery discarded can never be read as part of what is appended next (their
    /// durable counts would vouch for frames they never saw).
    /// </summary>
    public void DiscardRecoveredTail()
    {
        _device.SetLength(End);
        _device.Flush();
        _allocated = End;
    }

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

            _device.Write(End, _segments);
            if (offset > _allocated)
            {
                ExtendAhead(offset);
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

    /// <summary>
    /// Overwriting blocks that already hold data makes a flush cheaper than appending: an append
    /// also changes the file's size and block map, which the flush must commit to the file
    /// system's journal (measured on ext4: about 105 us per 24 KB commit appended, 63 us
    /// overwritten). After the first checkpoint the log is rewritten in place from its start, so
    /// only the first generation of a new log appends; in Full durability the log is extended
    /// with zeros ahead of it, doubling from 256 KB but by at most 1 MiB at a time, up to the
    /// checkpoint threshold, so most of those commits also overwrite. The zeros are flushed by the commit's own flush. A
    /// zero-filled frame fails its generation and salt check, so recovery reads it as the end
    /// of the log (as it does stale frames of earlier generations).
    /// </summary>
    private void ExtendAhead(long written)
    {
        _allocated = written;
        if (_preallocationLimit <= 0 || written >= _preallocationLimit)
        {
            return;
        }

        var target = Math.Min(_preallocationLimit, written + Math.Clamp(written, MinimumExtension, MaximumExtension));
        var zeros = ZeroBlock;
        _segments.Clear();
        for (var position = written; position < target; position += zeros.Length)
        {
            _segments.Add(zeros.AsMemory(0, (int)Math.Min(zeros.Length, target - position)));
        }

        _device.Write(written, _segments);
        _allocated = target;
    }
}
