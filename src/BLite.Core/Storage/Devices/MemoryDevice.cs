namespace BLite.Core.Storage.Devices;

/// <summary>A growable in-memory device. Thread-safe; <see cref="Flush"/> has nothing to do.</summary>
public sealed class MemoryDevice : IStorageDevice
{
    private readonly Lock _sync = new();
    private byte[] _data;
    private long _length;

    public MemoryDevice(string name = "memory")
        : this(name, ReadOnlySpan<byte>.Empty)
    {
    }

    /// <summary>A device that starts with a copy of <paramref name="content"/>.</summary>
    public MemoryDevice(string name, ReadOnlySpan<byte> content)
    {
        Name = name;
        _data = content.ToArray();
        _length = content.Length;
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
            return _data.AsSpan(0, (int)_length).ToArray();
        }
    }

    public int Read(long offset, Span<byte> destination)
    {
        lock (_sync)
        {
            if (offset >= _length)
            {
                return 0;
            }

            var count = (int)Math.Min(destination.Length, _length - offset);
            _data.AsSpan((int)offset, count).CopyTo(destination);
            return count;
        }
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        lock (_sync)
        {
            WriteCore(offset, source);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
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
            EnsureCapacity(length);
            if (length < _length)
            {
                _data.AsSpan((int)length, (int)(_length - length)).Clear();
            }

            _length = length;
        }
    }

    public void Dispose()
    {
    }

    private void WriteCore(long offset, ReadOnlySpan<byte> source)
    {
        EnsureCapacity(offset + source.Length);
        source.CopyTo(_data.AsSpan((int)offset));
        _length = Math.Max(_length, offset + source.Length);
    }

    private void EnsureCapacity(long required)
    {
        if (required > Array.MaxLength)
        {
            throw new IOException($"In-memory device '{Name}' cannot grow beyond {Array.MaxLength} bytes.");
        }

        if (required > _data.Length)
        {
            var capacity = Math.Max(required, Math.Min((long)_data.Length * 2, Array.MaxLength));
            Array.Resize(ref _data, (int)Math.Max(capacity, 4096));
        }
    }
}
