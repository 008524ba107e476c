using System.Buffers;

namespace BLite.Serialization;

/// <summary>
/// A growable, pooled output for serializing one document at a time. One instance is cached per
/// thread, so steady-state inserts and updates serialize without allocating; a buffer that grew
/// past <see cref="MaxRetainedBytes"/> goes back to the pool instead of staying cached.
/// </summary>
internal sealed class DocumentBuffer : IBufferWriter<byte>, IDisposable
{
    private const int InitialBytes = 4096;
    private const int MaxRetainedBytes = 1024 * 1024;

    [ThreadStatic]
    private static DocumentBuffer? s_cached;

    private byte[] _buffer;
    private int _written;

    private DocumentBuffer()
    {
        _buffer = ArrayPool<byte>.Shared.Rent(InitialBytes);
    }

    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

    /// <summary>An empty buffer for this thread; return it with <see cref="Dispose"/>.</summary>
    public static DocumentBuffer Rent()
    {
        var buffer = s_cached ?? new DocumentBuffer();
        s_cached = null;
        buffer._written = 0;
        return buffer;
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_written + count > _buffer.Length)
        {
            throw new InvalidOperationException("Advanced past the end of the buffer.");
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    public void Dispose()
    {
        if (_buffer.Length > MaxRetainedBytes)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(InitialBytes);
        }

        _written = 0;
        s_cached = this;
    }

    private void Ensure(int sizeHint)
    {
        var needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written >= needed)
        {
            return;
        }

        var grown = ArrayPool<byte>.Shared.Rent(Math.Max(_buffer.Length * 2, _written + needed));
        _buffer.AsSpan(0, _written).CopyTo(grown);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = grown;
    }
}
