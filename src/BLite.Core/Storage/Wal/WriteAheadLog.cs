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
    private readonly IStorageDevice _device;
    private readonly int _pageSize;
    private readonly ulong _databaseId;
    private readonly List<ReadOnlyMemory<byte>> _segments = [];
    private uint _salt;
    private uint _lastChecksum;

    public WriteAheadLog(IStorageDevice device, int pageSize, ulong databaseId)
    {
        _device = device;
        _pageSize = pageSize;
        _databaseId = databaseId;
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
        _lastChecksum = WalFormat.HeaderChecksum(header);
        End = WalFormat.HeaderSize;
        FrameCount = 0;
    }

    /// <summary>Continues from a recovered log, so a checkpoint can copy its frames before the restart.</summary>
    public void AdoptRecovered(uint generation, uint frameCount, long end)
    {
        Generation = generation;
        FrameCount = frameCount;
        End = end;
    }

    /// <summary>
    /// Writes one transaction as frames (the last one carrying the commit flag) in a single
    /// gathered write, and stores in <paramref name="imageOffsets"/> where each image landed.
    /// Returns the number of bytes appended.
    /// </summary>
    public long Append(ReadOnlySpan<uint> pageIds, ReadOnlySpan<byte[]> images, long seq, uint durableFrames, Span<long> imageOffsets)
    {
        var count = pageIds.Length;
        var headers = ArrayPool<byte>.Shared.Rent(count * WalFormat.FrameHeaderSize);
        try
        {
            _segments.Clear();
            var checksum = _lastChecksum;
            var offset = End;
            for (var i = 0; i < count; i++)
            {
                var header = headers.AsSpan(i * WalFormat.FrameHeaderSize, WalFormat.FrameHeaderSize);
                WalFormat.WriteFrameHeader(header, pageIds[i], i == count - 1, seq, Generation, _salt, durableFrames);
                checksum = WalFormat.ChainChecksum(checksum, header, images[i]);
                WalFormat.SetFrameChecksum(header, checksum);
                _segments.Add(headers.AsMemory(i * WalFormat.FrameHeaderSize, WalFormat.FrameHeaderSize));
                _segments.Add(images[i]);
                imageOffsets[i] = offset + WalFormat.FrameHeaderSize;
                offset += FrameSize;
            }

            _device.Write(End, _segments);
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
        }
    }
}
