using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace BLite.Bson;

/// <summary>
/// Writes C-BSON into a fixed span or an <see cref="IBufferWriter{T}"/>. A document is
/// <c>int32 length, elements, 0x00</c>; an element is <c>type byte, uint16 field id, value</c>;
/// an array item is <c>type byte, value</c>. Header and value are written by separate calls so
/// generated serializers can emit precomputed field ids.
/// </summary>
/// <remarks>
/// Over an <see cref="IBufferWriter{T}"/> the bytes of a top-level document stay pending until it
/// ends (its length prefix is patched last), then they are committed with one Advance. The writer
/// first writes straight into the output's span; only a document larger than that span moves to a
/// pooled buffer, which is copied out and returned to the pool when the document ends. Values
/// written outside any document are committed by <see cref="Flush"/>.
/// </remarks>
public ref partial struct BsonSpanWriter
{
    private const int MinimumOutputRequest = 512;

    private readonly IBufferWriter<byte>? _output;
    private Span<byte> _buffer;
    private int _position;
    private byte[]? _rented;
    private int _committed;
    private int _depth;

    public BsonSpanWriter(Span<byte> destination)
    {
        _buffer = destination;
    }

    public BsonSpanWriter(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        _output = output;
    }

    /// <summary>All bytes written so far, committed or pending.</summary>
    public readonly int BytesWritten => _committed + _position;

    /// <summary>How many documents and arrays are open.</summary>
    public readonly int Depth => _depth;

    /// <summary>The bytes written to a fixed destination span.</summary>
    public readonly ReadOnlySpan<byte> WrittenSpan => _output is null
        ? _buffer[.._position]
        : throw new InvalidOperationException("WrittenSpan is only available when writing to a fixed span.");

    /// <summary>Opens a document; pass the returned token to <see cref="EndDocument"/>.</summary>
    public int BeginDocument() => BeginContainer();

    public void EndDocument(int token) => EndContainer(token);

    /// <summary>Opens an array; items are written with <see cref="WriteItemHeader"/> and a value.</summary>
    public int BeginArray() => BeginContainer();

    public void EndArray(int token) => EndContainer(token);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteFieldHeader(BsonType type, ushort fieldId)
    {
        var span = Reserve(3);
        span[0] = (byte)type;
        BinaryPrimitives.WriteUInt16LittleEndian(span[1..], fieldId);
        _position += 3;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteItemHeader(BsonType type)
    {
        Reserve(1)[0] = (byte)type;
        _position++;
    }

    /// <summary>Commits pending bytes to the <see cref="IBufferWriter{T}"/> (no-op for a fixed span).</summary>
    public void Flush()
    {
        if (_output is null)
        {
            return;
        }

        if (_depth != 0)
        {
            throw new InvalidOperationException("Cannot flush while a document or array is still open.");
        }

        if (_rented is null)
        {
            if (_position > 0)
            {
                _output.Advance(_position);
            }
        }
        else
        {
            _output.Write(_buffer[.._position]);
            ArrayPool<byte>.Shared.Return(_rented);
            _rented = null;
        }

        _committed += _position;
        _position = 0;
        _buffer = default;
    }

    private int BeginContainer()
    {
        if (_depth >= BsonLimits.MaxDepth)
        {
            ThrowTooDeep();
        }

        var token = _position;
        Reserve(4);
        _position += 4;
        _depth++;
        return token;
    }

    private void EndContainer(int token)
    {
        if (_depth == 0 || (uint)token > (uint)(_position - 4))
        {
            ThrowBadToken(token);
        }

        Reserve(1)[0] = 0;
        _position++;
        BinaryPrimitives.WriteInt32LittleEndian(_buffer[token..], _position - token);
        _depth--;
        if (_depth == 0 && _output is not null)
        {
            Flush();
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Reserve(int count)
    {
        if (_buffer.Length - _position < count)
        {
            Grow(count);
        }

        return _buffer.Slice(_position, count);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int count)
    {
        if (_output is null)
        {
            throw new InvalidOperationException(
                $"The destination span ({_buffer.Length} bytes) is too small: {count} more bytes are needed at offset {_position}.");
        }

        if (_position == 0 && _rented is null)
        {
            _buffer = _output.GetSpan(Math.Max(count, MinimumOutputRequest));
            if (_buffer.Length >= count)
            {
                return;
            }
        }

        var needed = checked(_position + count);
        var size = Math.Max(needed, Math.Max(_buffer.Length * 2, MinimumOutputRequest));
        var next = ArrayPool<byte>.Shared.Rent(size);
        _buffer[.._position].CopyTo(next);
        if (_rented is not null)
        {
            ArrayPool<byte>.Shared.Return(_rented);
        }

        _rented = next;
        _buffer = next;
    }

    private static void ThrowTooDeep() =>
        throw new InvalidOperationException($"Documents and arrays cannot be nested more than {BsonLimits.MaxDepth} levels deep.");

    private readonly void ThrowBadToken(int token) =>
        throw new InvalidOperationException(_depth == 0
            ? "There is no open document or array to end."
            : $"Token {token} does not come from BeginDocument/BeginArray on this writer.");
}
