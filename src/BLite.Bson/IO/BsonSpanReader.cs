using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Bson;

/// <summary>
/// Reads C-BSON from a span, validating as it goes: every length is checked against the bytes
/// of the enclosing document, every terminator against its document's length, every type code,
/// and nesting depth is bounded by <see cref="BsonLimits.MaxDepth"/>. Malformed input always
/// raises <see cref="BsonFormatException"/> with the offset of the problem.
/// </summary>
public ref partial struct BsonSpanReader
{
    private readonly ReadOnlySpan<byte> _data;
    private int _position;
    private int _end;
    private int _depth;
    private InlineContainerEnds _parentEnds;
    private int[]? _deeperParentEnds;
    private readonly BsonStringTable? _strings;

    public BsonSpanReader(ReadOnlySpan<byte> source)
    {
        _data = source;
        _end = source.Length;
    }

    /// <summary>
    /// A reader that returns short strings through <paramref name="strings"/>, so that values
    /// repeated across the documents it and later readers on the thread decode share one instance.
    /// </summary>
    public BsonSpanReader(ReadOnlySpan<byte> source, BsonStringTable? strings)
    {
        _data = source;
        _end = source.Length;
        _strings = strings;
        // Not chained to the constructor above: the JIT would build the reader in a temporary and
        // copy it.
    }

    /// <summary>Offset of the next byte to read, from the start of the source span.</summary>
    public readonly int Position => _position;

    /// <summary>How many documents and arrays are open.</summary>
    public readonly int Depth => _depth;

    /// <summary>Enters the document at the current position: checks its length, pushes its end.</summary>
    public void ReadDocumentStart() => EnterContainer("Document");

    public void ReadArrayStart() => EnterContainer("Array");

    /// <summary>
    /// Reads the next element header of the current document; at the 0x00 terminator it consumes
    /// it, leaves the document and returns false.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadFieldHeader(out BsonType type, out ushort fieldId)
    {
        var position = _position;
        if (position < _end)
        {
            // _end never exceeds _data.Length (EnterContainer checks every length against the
            // bytes available), so after the checks against _end these reads stay in bounds.
            ref var at = ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), position);
            var code = at;
            if (code != 0)
            {
                if (_end - position < 3)
                {
                    ThrowTruncated(position, 3);
                }

                if (!IsKnownType(code))
                {
                    ThrowUnknownType(code, position);
                }

                type = (BsonType)code;
                var id = Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref at, 1));
                fieldId = BitConverter.IsLittleEndian ? id : BinaryPrimitives.ReverseEndianness(id);
                _position = position + 3;
                return true;
            }
        }

        ExitContainer();
        type = default;
        fieldId = 0;
        return false;
    }

    /// <summary>Like <see cref="TryReadFieldHeader"/> for array items, which carry no field id.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryReadItemHeader(out BsonType type)
    {
        var position = _position;
        if (position < _end)
        {
            var code = Unsafe.Add(ref MemoryMarshal.GetReference(_data), position);
            if (code != 0)
            {
                if (!IsKnownType(code))
                {
                    ThrowUnknownType(code, position);
                }

                type = (BsonType)code;
                _position = position + 1;
                return true;
            }
        }

        ExitContainer();
        type = default;
        return false;
    }

    /// <summary>
    /// Scans the rest of the current document for <paramref name="fieldId"/>, skipping other
    /// values. Found: the reader is positioned on its value. Not found: the document's terminator
    /// has been consumed, as after <see cref="TryReadFieldHeader"/> returned false.
    /// </summary>
    public bool TryFindField(ushort fieldId, out BsonType type)
    {
        while (TryReadFieldHeader(out type, out var id))
        {
            if (id == fieldId)
            {
                return true;
            }

            SkipValue(type);
        }

        return false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsKnownType(byte code) =>
        (code < 64 && ((KnownTypeCodes >> code) & 1) != 0) || code is (byte)BsonType.MaxKey or (byte)BsonType.MinKey;

    /// <summary>Bit n set when n is a <see cref="BsonType"/> code below 64 (all but MaxKey and MinKey): one shift and test per header.</summary>
    private const ulong KnownTypeCodes =
        (1UL << (int)BsonType.Double) | (1UL << (int)BsonType.String) | (1UL << (int)BsonType.Document)
        | (1UL << (int)BsonType.Array) | (1UL << (int)BsonType.Binary) | (1UL << (int)BsonType.ObjectId)
        | (1UL << (int)BsonType.Boolean) | (1UL << (int)BsonType.Null) | (1UL << (int)BsonType.Int32)
        | (1UL << (int)BsonType.Int64) | (1UL << (int)BsonType.Decimal128) | (1UL << (int)BsonType.DateTime)
        | (1UL << (int)BsonType.DateTimeOffset) | (1UL << (int)BsonType.TimeSpan) | (1UL << (int)BsonType.DateOnly)
        | (1UL << (int)BsonType.TimeOnly) | (1UL << (int)BsonType.UInt64) | (1UL << (int)BsonType.Undefined)
        | (1UL << (int)BsonType.UtcDateTime) | (1UL << (int)BsonType.Regex) | (1UL << (int)BsonType.DbPointer)
        | (1UL << (int)BsonType.JavaScript) | (1UL << (int)BsonType.Symbol) | (1UL << (int)BsonType.JavaScriptWithScope)
        | (1UL << (int)BsonType.Timestamp);

    private void EnterContainer(string what)
    {
        var start = _position;
        if (_end - start < 4)
        {
            ThrowTruncated(start, 4);
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), start), 4));
        if (length < 5 || length > _end - start)
        {
            ThrowInvalidContainerLength(what, length, _end - start, start);
        }

        var depth = _depth;
        if ((uint)depth >= BsonLimits.MaxDepth)
        {
            ThrowTooDeep(start);
        }

        if (depth < InlineDepth)
        {
            Unsafe.Add(ref _parentEnds[0], depth) = _end;
        }
        else
        {
            PushDeep(depth);
        }

        _depth = depth + 1;
        _end = start + length;
        _position = start + 4;
    }

    // Out of line: the messages' formatting would otherwise be inlined into every generated
    // reader that enters a document or an array.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidContainerLength(string what, int length, int available, int offset) =>
        throw new BsonFormatException(
            $"{what} length {length} is invalid: it must be at least 5 and at most the {available} bytes available", offset);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowTooDeep(int offset) =>
        throw new BsonFormatException($"Nesting exceeds the limit of {BsonLimits.MaxDepth} documents and arrays", offset);

    private void ExitContainer()
    {
        var depth = _depth;
        if (_position + 1 != _end || depth == 0)
        {
            ThrowCannotExit();
        }

        _position = _end;
        --depth;
        _end = depth < InlineDepth ? Unsafe.Add(ref _parentEnds[0], depth) : _deeperParentEnds![depth - InlineDepth];
        _depth = depth;
    }

    // Out of line: documents nest this deep rarely, and the array is allocated only for them.
    // A copy of the reader shares the array, which is safe for the read-ahead copies take (they
    // only go deeper than where they were copied, writing levels the original has not reached).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void PushDeep(int depth) =>
        (_deeperParentEnds ??= new int[BsonLimits.MaxDepth - InlineDepth])[depth - InlineDepth] = _end;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowCannotExit()
    {
        if (_depth == 0)
        {
            throw new InvalidOperationException("No document or array is open: call ReadDocumentStart or ReadArrayStart first.");
        }

        if (_position >= _end)
        {
            throw new BsonFormatException("Document or array has no 0x00 terminator within its declared length", _end);
        }

        throw new BsonFormatException(
            $"Document or array ends here but its length prefix says it ends at offset {_end}", _position);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<byte> Take(int count)
    {
        if ((uint)count > (uint)(_end - _position))
        {
            ThrowTruncated(_position, count);
        }

        // _position never passes _end, and _end never passes _data.Length (EnterContainer checks
        // every length), so the check above keeps the slice in bounds without Slice's own check.
        var span = MemoryMarshal.CreateReadOnlySpan(ref Unsafe.Add(ref MemoryMarshal.GetReference(_data), _position), count);
        _position += count;
        return span;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowTruncated(int offset, long needed) => ThrowTruncated(offset, needed, _end);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowTruncated(int offset, long needed, int end) =>
        throw new BsonFormatException(
            $"Input is truncated: {needed} bytes needed but only {end - offset} remain in the enclosing {(_depth == 0 && end == _data.Length ? "input" : "document")}",
            offset);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowUnknownType(byte code, int offset) =>
        throw new BsonFormatException($"Unknown C-BSON type code 0x{code:X2}", offset);

    /// <summary>
    /// Levels whose enclosing ends live in the reader itself. Every reader is zeroed when it is
    /// made, so a stack for all <see cref="BsonLimits.MaxDepth"/> levels cost every read of a
    /// document hundreds of bytes of clearing; deeper levels go to an array made on first use.
    /// </summary>
    internal const int InlineDepth = 16;

    [InlineArray(InlineDepth)]
    private struct InlineContainerEnds
    {
        private int _element0;
    }
}
