namespace BLite.Core.Storage.Devices;

/// <summary>A growable in-memory device. Thread-safe; <see cref="Flush"/> has nothing to do.</summary>
/// <remarks>
/// Content lives in fixed 64 KiB segments rather than one array: growing never copies what is
/// already there (a doubling array copied the whole database on each step and allocated it again
/// on the large-object heap), segments stay below the large-object threshold, and the device is
/// not capped at the largest array .NET allows.
/// </remarks>
internal sealed class MemoryDevice : IStorageDevice
{
    private const int SegmentShift = 16;
    private const int SegmentSize = 1 << SegmentShift;
    private const int OffsetMask = SegmentSize - 1;

    private readonly Lock _sync = new();
    private readonly List<byte[]> _segments = [];
    private long _length;

    public MemoryDevice(string name = "memory")
        : this(name, ReadOnlySpan<byte>.Empty)
    {
    }

    /// <summary>A device that starts with a copy of <paramref name="content"/>.</summary>
    public MemoryDevice(string name, ReadOnlySpan<byte> content)
    {
        Name = name;
        WriteCore(0, content);
    }

    public string Name { get; }

    public long Length
    {
        get
        {
            lock (_sync)
            {
                return _length;
            }
        }
    }

    /// <summary>A copy of the whole content.</summary>
    public byte[] ToArray()
    {
        lock (_sync)
        {
            var copy = new byte[_length];
            ReadCore(0, copy);
            return copy;
        }
    }

    public int Read(long offset, Span<byte> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        lock (_sync)
        {
            if (offset >= _length)
            {
                return 0;
            }

            var count = (int)Math.Min(destination.Length, _length - offset);
            ReadCore(offset, destination[..count]);
            return count;
        }
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        lock (_sync)
        {
            WriteCore(offset, source);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        lock (_sync)
        {
            for (var i = 0; i < sources.Count; i++)
            {
                WriteCore(offset, sources[i].Span);
                offset += sources[i].Length;
            }
        }
    }

    public void Flush()
    {
    }

    public void SetLength(long length)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        lock (_sync)
        {
            if (length < _length)
            {
                // Bytes past a truncation must read as zeros if the device grows again.
                ClearCore(length, _length - length);
                _segments.RemoveRange(SegmentCount(length), _segments.Count - SegmentCount(length));
            }
            else
            {
                EnsureSegments(length);
            }

            _length = length;
        }
    }

    public void Dispose()
    {
    }

    private static int SegmentCount(long length) => (int)((length + OffsetMask) >> SegmentShift);

    private void ReadCore(long offset, Span<byte> destination)
    {
        while (!destination.IsEmpty)
        {
            var within = (int)(offset & OffsetMask);
            var count = Math.Min(destination.Length, SegmentSize - within);
            _segments[(int)(offset >> SegmentShift)].AsSpan(within, count).CopyTo(destination);
            destination = destination[count..];
            offset += count;
        }
    }

    private void WriteCore(long offset, ReadOnlySpan<byte> source)
    {
        EnsureSegments(offset + source.Length);
        var end = offset + source.Length;
        while (!source.IsEmpty)
        {
            var within = (int)(offset & OffsetMask);
            var count = Math.Min(source.Length, SegmentSize - within);
            source[..count].CopyTo(_segments[(int)(offset >> SegmentShift)].AsSpan(within, count));
            source = source[count..];
            offset += count;
        }

        _length = Math.Max(_length, end);
    }

    private void ClearCore(long offset, long count)
    {
        while (count > 0)
        {
            var within = (int)(offset & OffsetMask);
            var chunk = (int)Math.Min(count, SegmentSize - within);
            _segments[(int)(offset >> SegmentShift)].AsSpan(within, chunk).Clear();
            count -= chunk;
            offset += chunk;
        }
    }

    private void EnsureSegments(long length)
    {
        var needed = SegmentCount(length);
        while (_segments.Count < needed)
        {
            _segments.Add(new byte[SegmentSize]);
        }
    }
}
