using System.Buffers;
using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// The write-ahead log of an encrypted database. The layout stays that of a plain log (40-byte
/// header, frames of 32 + P bytes) and the engine sees plain frames; on the device each frame's
/// page image is encrypted (<see cref="PageCipher"/>) with associated data binding the database id,
/// the frame's index, every field of its header (page id, commit flag, commit sequence,
/// generation, salt, durable count) and the file's checkpoint counter the log was started under
/// (<see cref="VersionRecord.SealingCounterFor"/>), so a log only authenticates next to the file
/// state it continues; the header's chained checksum, computed by the engine
/// over the plain page trailer, is stored masked so it reveals nothing of the plaintext.
/// Whatever is not a whole frame of a live generation (the log header, zeros written ahead of
/// the appends) passes through unchanged; it holds nothing secret.
/// </summary>
internal sealed class EncryptedWalDevice : IStorageDevice
{
    /// <summary>Kind 2, format version, two zero bytes, database id, frame index, sealing counter, frame header bytes [0, 28).</summary>
    private const int AssociatedDataSize = 28 + ChecksumOffset;
    private const int ChecksumOffset = 28;
    private const byte FrameKind = 2;

    /// <summary>The log header's reserved field, which an encrypted log fills with its binding MAC.</summary>
    private const int BindingOffset = 32;

    private readonly IStorageDevice _inner;
    private readonly EncryptedFileDevice _file;
    private readonly int _pageSize;
    private readonly int _frameSize;
    private readonly Lock _bindingLock = new();
    private uint _generation;
    private uint _salt;
    // Frames of the current log whose write to the device has returned: a flush that starts after
    // that holds them. Counting a frame when it is sealed, before its write, let a checkpoint's
    // flush on another thread record a commit's frame as on disk while the commit was still
    // writing it (the background checkpoint copies beside commits).
    private long _writtenFrames;
    private LogBinding _durable;

    /// <summary>Seals frames with <paramref name="file"/>'s cipher (the current one, after a key rotation too) and registers as its log.</summary>
    public EncryptedWalDevice(IStorageDevice inner, EncryptedFileDevice file)
    {
        _inner = inner;
        _file = file;
        _pageSize = file.PageSize;
        _frameSize = WalFormat.FrameSize(_pageSize);
        file.Log = this;
    }

    public string Name => _inner.Name;

    /// <summary>
    /// The log's generation and salt, and how many of its frames are on disk. Frames only read so
    /// far (recovery reads a log a crashed process wrote) are flushed first, so they count too.
    /// </summary>
    public LogBinding FlushedBinding()
    {
        lock (_bindingLock)
        {
            if (_durable.DurableFrames == _writtenFrames)
            {
                return _durable;
            }
        }

        Flush();
        lock (_bindingLock)
        {
            return _durable;
        }
    }

    private PageCipher Cipher => _file.Cipher;

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
                    if (position == 0 && read == WalFormat.HeaderSize)
                    {
                        ObserveHeader(remaining[..read]);
                    }

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
                    : ReadFrame(frameStart, index, frame, out _);
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
        if (offset == 0 && source.Length >= WalFormat.HeaderSize)
        {
            ObserveHeader(source);
        }

        var stored = ArrayPool<byte>.Shared.Rent(source.Length);
        try
        {
            var lastFrame = Seal(offset, source, stored.AsSpan(0, source.Length));
            _inner.Write(offset, stored.AsSpan(0, source.Length));
            if (lastFrame >= 0)
            {
                var start = WalFormat.HeaderSize + (lastFrame * _frameSize) - offset;
                NoteFrame(source.Slice((int)start, WalFormat.FrameHeaderSize), lastFrame);
            }
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

    public void Flush()
    {
        LogBinding seen;
        lock (_bindingLock)
        {
            seen = new LogBinding(_generation, _salt, _writtenFrames);
        }

        _inner.Flush();
        lock (_bindingLock)
        {
            // Flushes may overlap (a commit's group flush and the checkpoint's): the count only grows.
            if (seen.Generation == _generation && seen.Salt == _salt && seen.DurableFrames > _durable.DurableFrames)
            {
                _durable = seen;
            }
        }
    }

    private bool HoldsBaseFrame(long index, VersionRecord record)
    {
        var frame = ArrayPool<byte>.Shared.Rent(_frameSize);
        try
        {
            var frameHeader = frame.AsSpan(0, WalFormat.FrameHeaderSize);
            return ReadFrame(WalFormat.HeaderSize + (index * _frameSize), index, frame, out var authentic) == _frameSize && authentic
                && WalFormat.FrameGeneration(frameHeader) == record.BaseGeneration && WalFormat.FrameSalt(frameHeader) == record.BaseSalt;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(frame);
        }
    }

    /// <summary>Stores in the header's reserved field the MAC binding it to the file state it continues, and re-seals the header's CRC.</summary>
    private void BindHeader(Span<byte> header)
    {
        var counter = _file.Record.SealingCounterFor(BinaryPrimitives.ReadUInt32LittleEndian(header[24..]), BinaryPrimitives.ReadUInt32LittleEndian(header[28..]));
        BinaryPrimitives.WriteUInt32LittleEndian(header[BindingOffset..], Cipher.LogHeaderTag(header, counter));
        BinaryPrimitives.WriteUInt32LittleEndian(header[36..], Crc32C.Compute(header[..36]));
    }

    /// <summary>
    /// Refuses, at open, a log that was started beside another state of the file (an older or a
    /// newer copy of either file put back) and still holds frames of its own: replaying them would
    /// mix two states. A log without such frames has nothing to replay and is simply restarted.
    /// </summary>
    public void CheckBelongsToFile(string databasePath)
    {
        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        if (_inner.Read(0, header) < header.Length || !header[..8].SequenceEqual(WalFormat.Magic)
            || WalFormat.HeaderChecksum(header) != Crc32C.Compute(header[..36]))
        {
            return;
        }

        var generation = BinaryPrimitives.ReadUInt32LittleEndian(header[24..]);
        var salt = BinaryPrimitives.ReadUInt32LittleEndian(header[28..]);
        var expected = Cipher.LogHeaderTag(header, _file.Record.SealingCounterFor(generation, salt));
        if (BinaryPrimitives.ReadUInt32LittleEndian(header[BindingOffset..]) == expected)
        {
            return;
        }

        Span<byte> firstFrame = stackalloc byte[WalFormat.FrameHeaderSize];
        if (_inner.Read(WalFormat.HeaderSize, firstFrame) == firstFrame.Length
            && WalFormat.FrameGeneration(firstFrame) == generation && WalFormat.FrameSalt(firstFrame) == salt)
        {
            throw new BLiteCorruptionException(databasePath, null, $"its write-ahead log '{Name}' was started beside another state of the database file (one of the two files was replaced by an older or newer copy of itself); replaying it would mix two states, so it was refused.");
        }
    }

    /// <summary>
    /// Refuses, at open, the log a crash left behind between a checkpoint's commit and the log's
    /// restart when it is an older copy of that log: it must still hold the last frame the
    /// checkpoint knew to be on disk, or replaying it would roll pages back.
    /// </summary>
    public void CheckAgainstCommittedBase(string databasePath)
    {
        var record = _file.Record;
        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        if (record.BaseDurableFrames == 0 || _inner.Read(0, header) < header.Length || !header[..8].SequenceEqual(WalFormat.Magic)
            || BinaryPrimitives.ReadUInt32LittleEndian(header[24..]) != record.BaseGeneration
            || BinaryPrimitives.ReadUInt32LittleEndian(header[28..]) != record.BaseSalt)
        {
            return;
        }

        // A log whose first frame is gone (the checkpoint shrank the log before restarting it)
        // replays nothing, which is safe; only a prefix of it would replay older versions.
        var index = record.BaseDurableFrames - 1;
        if (!HoldsBaseFrame(0, record) || HoldsBaseFrame(index, record))
        {
            return;
        }

        throw new BLiteCorruptionException(databasePath, null, $"its write-ahead log '{Name}' is the log its last checkpoint copied from, but no longer holds that log's frame {index}, which the checkpoint knew to be on disk: it was replaced by an older copy of itself, and replaying it would roll pages back to older versions.");
    }

    public void SetLength(long length) => _inner.SetLength(length);

    // Frames lie at the same offsets in the inner device, and reserving changes no byte of them.
    public bool Reserve(long offset, long length) => _inner.Reserve(offset, length);

    public void Dispose() => _inner.Dispose();

    /// <summary>
    /// Copies <paramref name="source"/> to <paramref name="stored"/>, encrypting every whole frame of
    /// a live generation in it. Returns the index of the last such frame, or -1.
    /// </summary>
    private long Seal(long offset, ReadOnlySpan<byte> source, Span<byte> stored)
    {
        var lastFrame = -1L;
        source.CopyTo(stored);
        if (offset == 0 && stored.Length >= WalFormat.HeaderSize && stored[..8].SequenceEqual(WalFormat.Magic))
        {
            BindHeader(stored[..WalFormat.HeaderSize]);
        }
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
            Cipher.Encrypt(source.Slice(image, _pageSize), stored.Slice(image, _pageSize), pageId, associatedData);
            MaskChecksum(stored.Slice((int)start, WalFormat.FrameHeaderSize), associatedData);
            lastFrame = index;
        }

        return lastFrame;
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
    private int ReadFrame(long frameStart, long index, byte[] frame, out bool authentic)
    {
        authentic = false;
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
            authentic = Cipher.TryDecrypt(raw[WalFormat.FrameHeaderSize..], frame.AsSpan(WalFormat.FrameHeaderSize, _pageSize), WalFormat.FramePageId(header), associatedData);
            if (authentic)
            {
                NoteFrame(header, index);
            }

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
        BinaryPrimitives.WriteUInt64LittleEndian(associatedData[4..], Cipher.DatabaseId);
        BinaryPrimitives.WriteInt64LittleEndian(associatedData[12..], index);
        var sealingCounter = _file.Record.SealingCounterFor(WalFormat.FrameGeneration(frameHeader), WalFormat.FrameSalt(frameHeader));
        BinaryPrimitives.WriteInt64LittleEndian(associatedData[20..], sealingCounter);
        frameHeader[..ChecksumOffset].CopyTo(associatedData[28..]);
    }

    /// <summary>A log header written (a restart) or read (an open): frames are counted afresh for it.</summary>
    private void ObserveHeader(ReadOnlySpan<byte> header)
    {
        if (!header[..8].SequenceEqual(WalFormat.Magic))
        {
            return;
        }

        var generation = BinaryPrimitives.ReadUInt32LittleEndian(header[24..]);
        var salt = BinaryPrimitives.ReadUInt32LittleEndian(header[28..]);
        lock (_bindingLock)
        {
            if (generation != _generation || salt != _salt)
            {
                _generation = generation;
                _salt = salt;
                _writtenFrames = 0;
                _durable = new LogBinding(generation, salt, 0);
            }
        }
    }

    /// <summary>Counts an authentic frame of the current log, written (once the device has it) or read: a flush after it makes it count as on disk.</summary>
    private void NoteFrame(ReadOnlySpan<byte> frameHeader, long index)
    {
        lock (_bindingLock)
        {
            if (WalFormat.FrameGeneration(frameHeader) == _generation && WalFormat.FrameSalt(frameHeader) == _salt)
            {
                _writtenFrames = Math.Max(_writtenFrames, index + 1);
            }
        }
    }

    /// <summary>XORs the checksum field with a mask of the frame's place (its own inverse).</summary>
    private void MaskChecksum(Span<byte> frameHeader, ReadOnlySpan<byte> associatedData)
    {
        var checksum = WalFormat.FrameChecksum(frameHeader) ^ Cipher.ChecksumMask(associatedData);
        WalFormat.SetFrameChecksum(frameHeader, checksum);
    }
}
