using System.Buffers;
using System.Buffers.Binary;

namespace BLite.Bson.Interop;

/// <summary>
/// A growable byte buffer on pooled arrays with back-patching of int32 lengths, which standard
/// BSON needs (every document and string starts with its byte count).
/// </summary>
internal sealed class PooledByteBuffer : IDisposable
{
    private byte[] _buffer;
    private int _length;

    public PooledByteBuffer(int initialCapacity = 256)
    {
        _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);
    }

    public int Length => _length;

    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _length);

    public Span<byte> GetSpan(int size)
    {
        if (_buffer.Length - _length < size)
        {
            Grow(size);
        }

        return _buffer.AsSpan(_length, size);
    }

    public void Advance(int count) => _length += count;

    public void WriteByte(byte value)
    {
        GetSpan(1)[0] = value;
        _length++;
    }

    public void WriteInt32(int value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(GetSpan(4), value);
        _length += 4;
    }

    public void WriteInt64(long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(GetSpan(8), value);
        _length += 8;
    }

    public void Write(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(GetSpan(bytes.Length));
        _length += bytes.Length;
    }

    /// <summary>Reserves four bytes for a length written later by <see cref="PatchLength"/>; returns their position.</summary>
    public int ReserveLength()
    {
        var position = _length;
        WriteInt32(0);
        return position;
    }

    /// <summary>Writes the number of bytes from <paramref name="position"/> to the current end at <paramref name="position"/>.</summary>
    public void PatchLength(int position) =>
        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(position), _length - position);

    /// <summary>Overwrites one byte already written (a type byte decided after its value was written).</summary>
    public void Patch(int position, byte value) => _buffer[position] = value;

    public void Dispose()
    {
        var buffer = _buffer;
        _buffer = [];
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Grow(int size)
    {
        var required = (long)_length + size;
        if (required > Array.MaxLength)
        {
            throw new InvalidOperationException("A standard BSON document cannot exceed 2 GB.");
        }

        var next = ArrayPool<byte>.Shared.Rent((int)Math.Min(Array.MaxLength, Math.Max(required, (long)_buffer.Length * 2)));
        _buffer.AsSpan(0, _length).CopyTo(next);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = next;
    }
}
