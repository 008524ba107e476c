using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;

namespace BLite.Bson;

/// <summary>
/// Short strings decoded recently on this thread, so a reader that materialises many documents
/// returns one instance for a value that repeats (a status, a currency, a country, a tag) instead
/// of a new string per document. A query returning a large result keeps every object it builds
/// alive until the caller lets the result go, so the garbage collector copies each of them from
/// generation to generation; a repeated 7-character value costs 40 bytes per document in that
/// result. Strings are immutable, so sharing one instance is invisible to callers other than by
/// reference identity.
/// </summary>
/// <remarks>
/// Direct-mapped and overwritten on every miss: a value that does not repeat costs one hash and
/// one failed comparison, and cannot crowd out more than the one slot its hash names. Only ASCII
/// strings of at most <see cref="MaxBytes"/> bytes are kept; longer text is rarely repeated
/// verbatim and would make the comparison cost more than the allocation it saves. A table is not
/// thread-safe: <see cref="ForCurrentThread"/> gives each thread its own.
/// </remarks>
public sealed class BsonStringTable
{
    /// <summary>The longest string (in UTF-8 bytes) the table keeps.</summary>
    public const int MaxBytes = 64;

    private const int SlotBits = 9;

    [ThreadStatic]
    private static BsonStringTable? _current;

    private readonly string?[] _slots = new string?[1 << SlotBits];

    /// <summary>The calling thread's table, created on first use.</summary>
    public static BsonStringTable ForCurrentThread => _current ??= new BsonStringTable();

    /// <summary>
    /// The string whose UTF-8 bytes are <paramref name="utf8"/> (not empty, at most
    /// <see cref="MaxBytes"/> long): the kept instance when an equal one is in the table,
    /// otherwise a newly decoded one, kept when it is ASCII.
    /// </summary>
    internal string GetOrDecode(ReadOnlySpan<byte> utf8, int offset)
    {
        ref var slot = ref _slots[Slot(utf8)];
        if (slot is { } kept && Ascii.Equals(utf8, kept))
        {
            return kept;
        }

        var decoded = BsonSpanReader.DecodeUtf8(utf8, offset, out var ascii);
        if (ascii)
        {
            slot = decoded;
        }

        return decoded;
    }

    // The first and last eight bytes and the length pick the slot: enough to tell apart the short
    // values worth sharing, and a constant cost whatever the length. Strings that differ only in
    // the middle share a slot; the comparison tells them apart.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Slot(ReadOnlySpan<byte> utf8)
    {
        var length = utf8.Length;
        ulong bits;
        if (length >= 8)
        {
            bits = BinaryPrimitives.ReadUInt64LittleEndian(utf8) ^ BitOperations.RotateLeft(BinaryPrimitives.ReadUInt64LittleEndian(utf8[(length - 8)..]), 29);
        }
        else if (length >= 4)
        {
            bits = BinaryPrimitives.ReadUInt32LittleEndian(utf8) | ((ulong)BinaryPrimitives.ReadUInt32LittleEndian(utf8[(length - 4)..]) << 32);
        }
        else
        {
            bits = utf8[0] | ((ulong)utf8[length / 2] << 8) | ((ulong)utf8[length - 1] << 16);
        }

        return (int)(((bits ^ (ulong)length) * 0x9E3779B97F4A7C15UL) >> (64 - SlotBits));
    }
}
