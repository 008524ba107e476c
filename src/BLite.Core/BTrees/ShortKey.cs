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
        (_high, _low) = Words(key);
        _length = key.Length;
    }

    /// <summary>The sign of comparing <paramref name="key"/> (at most <see cref="MaxLength"/> bytes) with this key, as <see cref="MemoryExtensions.SequenceCompareTo{T}(ReadOnlySpan{T}, ReadOnlySpan{T})"/> gives it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int CompareFrom(ReadOnlySpan<byte> key)
    {
        var (high, low) = Words(key);
        if (high != _high)
        {
            return high < _high ? -1 : 1;
        }

        if (low != _low)
        {
            return low < _low ? -1 : 1;
        }

        return key.Length - _length;
    }

    /// <summary>
    /// <see cref="CompareFrom(ReadOnlySpan{byte})"/> for the <paramref name="length"/> bytes (at
    /// most <see cref="MaxLength"/>) at <paramref name="key"/>, which the caller has checked lie
    /// inside its buffer: a node search probing a page reads the stored key in place, without
    /// slicing it (and checking its bounds) once more per load.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int CompareFrom(ref byte key, int length)
    {
        ulong high;
        ulong low = 0;
        if (length >= sizeof(ulong))
        {
            high = BigEndianWord(ref key);
            if (length != sizeof(ulong))
            {
                low = BigEndianWord(ref Unsafe.Add(ref key, length - sizeof(ulong))) << (8 * ((2 * sizeof(ulong)) - length));
            }
        }
        else
        {
            high = 0;
            for (var i = 0; i < length; i++)
            {
                high |= (ulong)Unsafe.Add(ref key, i) << (56 - (8 * i));
            }
        }

        if (high != _high)
        {
            return high < _high ? -1 : 1;
        }

        if (low != _low)
        {
            return low < _low ? -1 : 1;
        }

        return length - _length;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong BigEndianWord(ref byte source)
    {
        var word = Unsafe.ReadUnaligned<ulong>(ref source);
        return BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(word) : word;
    }

    /// <summary>The key's two zero-padded big-endian words (it has at most <see cref="MaxLength"/> bytes).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static (ulong High, ulong Low) Words(ReadOnlySpan<byte> key)
    {
        var length = key.Length;
        if (length >= sizeof(ulong))
        {
            var high = BinaryPrimitives.ReadUInt64BigEndian(key);

            // The second word's bytes are the last 8 of the key shifted up past those the first
            // word already holds: two loads, no loop, for any length from 8 to 16.
            var low = length == sizeof(ulong) ? 0 : BinaryPrimitives.ReadUInt64BigEndian(key[(length - sizeof(ulong))..]) << (8 * ((2 * sizeof(ulong)) - length));
            return (high, low);
        }

        ulong word = 0;
        for (var i = 0; i < length; i++)
        {
            word |= (ulong)key[i] << (56 - (8 * i));
        }

        return (word, 0);
    }
}
