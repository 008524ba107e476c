using System.Buffers.Binary;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Storage;

/// <summary>
/// Keeps a read-only engine's snapshot honest while another engine may be writing the same files.
/// The snapshot is the database file plus the log's committed frames as scanned at open. A writer
/// changes that picture only by appending frames (they lie past the snapshot) and by
/// checkpointing, which copies the newest image of every page in the log into the file and then
/// restarts the log. So after every page read the watch checks that the log header is unchanged
/// (no restart: the frames the snapshot points into are intact). A page read from the file is
/// still the snapshot's unless a frame appended since the open holds that page and the file now
/// holds that frame's image (its page checksum matches) or a torn mix of the two; then a
/// checkpoint is under way. In those cases the read fails with a <see cref="BLiteException"/>
/// asking for a fresh open, instead of mixing two states or reporting a torn read as damage.
/// </summary>
internal sealed class SharedLogWatch
{
    private readonly Lock _sync = new();
    private readonly string _databasePath;
    private readonly string _walPath;
    private readonly byte[] _header = new byte[WalFormat.HeaderSize];
    private readonly int _headerLength;
    private readonly Dictionary<uint, List<long>> _appendedFrames = [];
    private readonly IStorageDevice? _wal;
    private int _frameSize;
    private int _pageSize;
    private uint _generation;
    private uint _salt;
    private long _scannedEnd;

    /// <param name="wal">The log opened read-only, or null when it did not exist at open.</param>
    public SharedLogWatch(string databasePath, string walPath, IStorageDevice? wal)
    {
        _databasePath = databasePath;
        _walPath = walPath;
        _wal = wal;
        _headerLength = wal?.Read(0, _header) ?? 0;
    }

    /// <summary>Starts watching the snapshot the open found in the log (which it judged after this watch read the header).</summary>
    public void Arm(WalScanResult scan, int pageSize)
    {
        _frameSize = WalFormat.FrameSize(pageSize);
        _pageSize = pageSize;
        _generation = scan.Generation;
        _salt = scan.Salt;
        _scannedEnd = scan.HeaderValid ? scan.CommittedEnd : long.MaxValue;
        AfterRead(fromLog: true, 0, [], intact: true);
    }

    /// <param name="image">The image just read; <paramref name="intact"/> says whether it passed its trailer check.</param>
    public void AfterRead(bool fromLog, uint pageId, ReadOnlySpan<byte> image, bool intact)
    {
        lock (_sync)
        {
            if (_wal is null)
            {
                // No log at open: nothing was written since the last checkpoint, until a writer opens.
                if (File.Exists(_walPath))
                {
                    throw Changed();
                }

                return;
            }

            if (!fromLog && MayBeCheckpointedImage(pageId, image, intact))
            {
                throw Changed();
            }

            // Checked last: an unchanged header proves every log byte read above (and the image,
            // when it came from the log) belongs to the snapshot's generation.
            ThrowIfLogRestarted();
        }
    }

    /// <summary>
    /// Throws when the log header differs from the one seen before the open's scan: a writer
    /// restarted the log meanwhile, so what the scan read (including frames that looked damaged
    /// because they were being overwritten) is no evidence of anything.
    /// </summary>
    public void ThrowIfLogRestarted()
    {
        if (_wal is null)
        {
            return;
        }

        Span<byte> header = stackalloc byte[WalFormat.HeaderSize];
        var read = _wal.Read(0, header);
        if (read != _headerLength || !header[..read].SequenceEqual(_header.AsSpan(0, _headerLength)))
        {
            throw Changed();
        }
    }

    /// <summary>
    /// Whether a file image may come from a checkpoint of frames appended after the open: a frame
    /// appended since then holds the page, and the image is torn or equals that frame's image.
    /// The frames' trailers are read now rather than when first seen: a checkpoint copies only
    /// frames that were completely written (and flushed) before it, so by the time the file holds
    /// a frame's image, that frame's trailer is final.
    /// </summary>
    private bool MayBeCheckpointedImage(uint pageId, ReadOnlySpan<byte> image, bool intact)
    {
        ScanAppendedFrames();
        if (!_appendedFrames.TryGetValue(pageId, out var offsets))
        {
            return false;
        }

        if (!intact)
        {
            return true;
        }

        var checksum = BinaryPrimitives.ReadUInt32LittleEndian(image[^4..]);
        Span<byte> trailer = stackalloc byte[PageLayout.TrailerSize];
        foreach (var offset in offsets)
        {
            if (_wal!.Read(offset + _frameSize - PageLayout.TrailerSize, trailer) != trailer.Length
                || BinaryPrimitives.ReadUInt32LittleEndian(trailer[4..]) == checksum)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Records which page each frame appended past the snapshot holds (frame headers only; a frame still being written is picked up by a later call).</summary>
    private void ScanAppendedFrames()
    {
        if (_scannedEnd == long.MaxValue)
        {
            return;
        }

        Span<byte> frame = stackalloc byte[WalFormat.FrameHeaderSize];
        while (_wal!.Read(_scannedEnd, frame) == frame.Length
            && WalFormat.FrameGeneration(frame) == _generation
            && WalFormat.FrameSalt(frame) == _salt)
        {
            // Record frames hold no page: only their length matters here.
            if (!WalFormat.FrameIsRecord(frame))
            {
                var pageId = WalFormat.FramePageId(frame);
                if (!_appendedFrames.TryGetValue(pageId, out var offsets))
                {
                    _appendedFrames[pageId] = offsets = [];
                }

                offsets.Add(_scannedEnd);
            }

            _scannedEnd += WalFormat.FrameLength(frame, _pageSize);
        }
    }

    private SharedSnapshotChangedException Changed() =>
        new($"Database '{_databasePath}' was changed by a writer while this read-only view was reading it (a checkpoint replaced pages of its snapshot); open it again to read the new state.");
}
