using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace BLite.Core.BTrees;

/// <summary>
/// A key of at most 16 bytes (an ObjectId, a Guid, a number, a short string) as two big-endian
/// words, zero-padded: comparing the words, then the lengths, orders keys exactly as comparing
/// their bytes does, without a call per probe of a node's binary search.
/// </summary>
/// <remarks>
/// Zero padding is sound because a tie on both words means the shorter key is a prefix of the
/// longer (any differing byte lies inside both keys and decides a word), and a prefix orders first.
/// </remarks>
internal readonly struct ShortKey
{
    public const int MaxLength = 16;

    private readonly ulong _high;
    private readonly ulong _low;
    private readonly int _length;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ShortKey(ReadOnlySpan<byte> key)
    {
        _high = Word(key, 0);
        _low = Word(key, 8);
        _length = key.Length;
    }

    /// <summary>The sign of comparing <paramref name="key"/> (at most <see cref="MaxLength"/> bytes) with this key, as <see cref="MemoryExtensions.SequenceCompareTo{T}(ReadOnlySpan{T}, ReadOnlySpan{T})"/> gives it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int CompareFrom(ReadOnlySpan<byte> key)
    {
        var high = Word(key, 0);
        if (high != _high)
        {
            return high < _high ? -1 : 1;
        }

        var low = Word(key, 8);
        if (low != _low)
        {
            return low < _low ? -1 : 1;
        }

        return key.Length - _length;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Word(ReadOnlySpan<byte> key, int offset)
    {
        var remaining = key.Length - offset;
        if (remaining >= sizeof(ulong))
        {
            return BinaryPrimitives.ReadUInt64BigEndian(key[offset..]);
        }

        ulong word = 0;
        for (var i = 0; i < remaining; i++)
        {
            word |= (ulong)key[offset + i] << (56 - (8 * i));
        }

        return word;
    }
}
