using System.Buffers;
using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// The write-ahead log of an encrypted database. The layout stays that of a plain log (40-byte
/// header, frames of 32 + P bytes) and the engine sees plain frames; on the device each frame's
/// page image is encrypted (<see cref="PageCipher"/>) with associated data binding the database id,
/// the frame's index and every field of its header (page id, commit flag, commit sequence,
/// generation, salt, durable count), and the header's chained checksum, computed by the engine
/// over the plain page trailer, is stored masked so it reveals nothing of the plaintext.
/// Whatever is not a whole frame of a live generation (the log header, zeros written ahead of
/// the appends) passes through unchanged; it holds nothing secret.
/// </summary>
internal sealed class EncryptedWalDevice : IStorageDevice
{
    /// <summary>Kind 2, version 1, two zero bytes, database id, frame index, frame header bytes [0, 28).</summary>
    private const int AssociatedDataSize = 20 + ChecksumOffset;
    private const int ChecksumOffset = 28;
    private const byte FrameKind = 2;

    private readonly IStorageDevice _inner;
    private PageCipher _cipher;
    private readonly int _pageSize;
    private readonly int _frameSize;

    public EncryptedWalDevice(IStorageDevice inner, PageCipher cipher, int pageSize)
    {
        _inner = inner;
        _cipher = cipher;
        _pageSize = pageSize;
        _frameSize = WalFormat.FrameSize(pageSize);
    }

    public string Name => _inner.Name;

    /// <summary>Seals frames written from now on with <paramref name="cipher"/> (key rotation; the log holds no frame then).</summary>
    public void UseCipher(PageCipher cipher) => Volatile.Write(ref _cipher, cipher);

    public long Length => _inner.Length;

    public int Read(long offset, Span<byte> destination)
    {
        var total = 0;
        byte[]? frame = null;
        try
        {
            while (total < destination.Length)
            {
                var position = offset + total;
                var remaining = destination[total..];
                if (position < WalFormat.HeaderSize)
                {
                    var count = (int)Math.Min(remaining.Length, WalFormat.HeaderSize - position);
                    var read = _inner.Read(position, remaining[..count]);
                    total += read;
                    if (read < count)
                    {
                        break;
                    }

                    continue;
                }

                var index = (position - WalFormat.HeaderSize) / _frameSize;
                var frameStart = WalFormat.HeaderSize + (index * _frameSize);
                var within = (int)(position - frameStart);
                var wanted = Math.Min(remaining.Length, _frameSize - within);
                frame ??= ArrayPool<byte>.Shared.Rent(_frameSize);
                var available = within + wanted <= WalFormat.FrameHeaderSize
                    ? ReadFrameHeader(frameStart, index, frame)
                    : ReadFrame(frameStart, index, frame);
                var copied = Math.Clamp(available - within, 0, wanted);
                frame.AsSpan(within, copied).CopyTo(remaining);
                total += copied;
                if (copied < wanted)
                {
                    break;
                }
            }

            return total;
        }
        finally
        {
            if (frame is not null)
            {
                ArrayPool<byte>.Shared.Return(frame);
            }
        }
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        var stored = ArrayPool<byte>.Shared.Rent(source.Length);
        try
        {
            Seal(offset, source, stored.AsSpan(0, source.Length));
            _inner.Write(offset, stored.AsSpan(0, source.Length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        // Zeros written ahead of the appends hold no frame: they go through as they are, without
        // being gathered into one buffer (they may be megabytes).
        var allZero = true;
        for (var i = 0; i < sources.Count && allZero; i++)
        {
            allZero = !sources[i].Span.ContainsAnyExcept((byte)0);
        }

        if (allZero)
        {
            _inner.Write(offset, sources);
            return;
        }

        var length = 0;
        foreach (var source in sources)
        {
            length += source.Length;
        }

        var plain = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            var at = 0;
            foreach (var source in sources)
            {
                source.Span.CopyTo(plain.AsSpan(at));
                at += source.Length;
            }

            Write(offset, plain.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(plain);
        }
    }

    public void Flush() => _inner.Flush();

    public void SetLength(long length) => _inner.SetLength(length);

    public void Dispose() => _inner.Dispose();

    /// <summary>Copies <paramref name="source"/> to <paramref name="stored"/>, encrypting every whole frame of a live generation in it.</summary>
    private void Seal(long offset, ReadOnlySpan<byte> source, Span<byte> stored)
    {
        source.CopyTo(stored);
        Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
        var firstIndex = Math.Max(0, (offset - WalFormat.HeaderSize + _frameSize - 1) / _frameSize);
        for (var index = firstIndex; ; index++)
        {
            var start = WalFormat.HeaderSize + (index * _frameSize) - offset;
            if (start + _frameSize > source.Length)
            {
                break;
            }

            var header = source.Slice((int)start, WalFormat.FrameHeaderSize);
            if (WalFormat.FrameGeneration(header) == 0)
            {
                continue;
            }

            var pageId = WalFormat.FramePageId(header);
            WriteAssociatedData(associatedData, index, header);
            var image = (int)start + WalFormat.FrameHeaderSize;
            _cipher.Encrypt(source.Slice(image, _pageSize), stored.Slice(image, _pageSize), pageId, associatedData);
            MaskChecksum(stored.Slice((int)start, WalFormat.FrameHeaderSize), associatedData);
        }
    }

    /// <summary>Reads frame <paramref name="index"/>'s header only, its checksum unmasked; returns the bytes available.</summary>
    private int ReadFrameHeader(long frameStart, long index, byte[] frame)
    {
        var header = frame.AsSpan(0, WalFormat.FrameHeaderSize);
        var read = _inner.Read(frameStart, header);
        if (read == header.Length && WalFormat.FrameGeneration(header) != 0)
        {
            Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
            WriteAssociatedData(associatedData, index, header);
            MaskChecksum(header, associatedData);
        }

        return read;
    }

    /// <summary>Reads and decrypts frame <paramref name="index"/> into <paramref name="frame"/>; returns the bytes available.</summary>
    private int ReadFrame(long frameStart, long index, byte[] frame)
    {
        var stored = ArrayPool<byte>.Shared.Rent(_frameSize);
        try
        {
            var raw = stored.AsSpan(0, _frameSize);
            var read = _inner.Read(frameStart, raw);
            var header = raw[..WalFormat.FrameHeaderSize];
            if (read < _frameSize || WalFormat.FrameGeneration(header) == 0)
            {
                raw[..read].CopyTo(frame);
                return read;
            }

            Span<byte> associatedData = stackalloc byte[AssociatedDataSize];
            WriteAssociatedData(associatedData, index, header);
            header.CopyTo(frame);
            MaskChecksum(frame.AsSpan(0, WalFormat.FrameHeaderSize), associatedData);
            _cipher.TryDecrypt(raw[WalFormat.FrameHeaderSize..], frame.AsSpan(WalFormat.FrameHeaderSize, _pageSize), WalFormat.FramePageId(header), associatedData);
            return read;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(stored);
        }
    }

    private void WriteAssociatedData(Span<byte> associatedData, long index, ReadOnlySpan<byte> frameHeader)
    {
        associatedData.Clear();
        associatedData[0] = FrameKind;
        associatedData[1] = (byte)EncryptionHeader.FormatVersion;
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], _cipher.DatabaseId);
        BinaryPrimitives.WriteInt64LittleEndian(associatedData[12..], index);
        frameHeader[..ChecksumOffset].CopyTo(associatedData[20..]);
    }

    /// <summary>XORs the checksum field with a mask of the frame's place (its own inverse).</summary>
    private void MaskChecksum(Span<byte> frameHeader, ReadOnlySpan<byte> associatedData)
    {
        var checksum = WalFormat.FrameChecksum(frameHeader) ^ _cipher.ChecksumMask(associatedData);
        WalFormat.SetFrameChecksum(frameHeader, checksum);
    }
}
