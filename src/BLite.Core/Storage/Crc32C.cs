using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Core.Storage;

/// <summary>
/// CRC-32C (Castagnoli), the checksum on every page and WAL frame. BitOperations.Crc32C maps to
/// the SSE4.2 / ARMv8 CRC instruction when present.
/// </summary>
/// <remarks>
/// The CRC instruction has a latency of about three cycles but can start one per cycle, so a
/// single dependent chain runs at a third of the hardware's speed. Inputs of a page's size are
/// therefore split into three equal streams computed side by side, and the three partial CRCs
/// are joined with the linearity of CRC: the register after <c>A ++ B</c> is the register after
/// A shifted through |B| zero bytes, xor the register after B started from zero. The shift is a
/// fixed linear map for a given length, kept as four 256-entry tables per length.
/// </remarks>
internal static class Crc32C
{
    // Below this the combine costs more than the interleaving saves.
    private const int InterleaveThreshold = 1024;
    private const int StreamCount = 3;

    // Inputs this large are page images, of a handful of sizes; other lengths use one stream
    // rather than let the cache grow.
    private const int MaxCachedShiftLengths = 16;

    // Inputs under the limit are mostly WAL log records (a change feed's events), of every length:
    // their streams are cut to a multiple of the granularity, so a few tables (nine from 1 KB to 4 KB) serve them
    // all and the cache stays free for the page sizes; the rest, under 3 x 128 bytes, runs as
    // one stream. The limit stays below 4,088, the checksummed part of a 4 KiB page, so page
    // images of every size keep their exact tables.
    private const int VariableLengthLimit = 4000;
    private const int VariableStreamGranularity = 128;
    private static readonly ConcurrentDictionary<int, uint[]> s_shiftTables = new();

    /// <summary>The standard CRC-32C of <paramref name="data"/> (initial value and final xor 0xFFFFFFFF).</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Append(0, data);

    /// <summary>
    /// The CRC-32C of (bytes that produced <paramref name="crc"/>) followed by <paramref name="data"/>;
    /// <c>Append(Compute(a), b) == Compute(a + b)</c>. Used to chain WAL frames.
    /// </summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data) =>
        ~(data.Length >= InterleaveThreshold ? UpdateInterleaved(~crc, data) : Update(~crc, data));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Update(uint state, ReadOnlySpan<byte> data)
    {
        var words = MemoryMarshal.Cast<byte, ulong>(data);
        foreach (var word in words)
        {
            state = BitOperations.Crc32C(state, LittleEndian(word));
        }

        foreach (var b in data[(words.Length * sizeof(ulong))..])
        {
            state = BitOperations.Crc32C(state, b);
        }

        return state;
    }

    private static uint UpdateInterleaved(uint state, ReadOnlySpan<byte> data)
    {
        var streamBytes = data.Length < VariableLengthLimit
            ? data.Length / StreamCount / VariableStreamGranularity * VariableStreamGranularity
            : data.Length / (StreamCount * sizeof(ulong)) * sizeof(ulong);
        var wordsPerStream = streamBytes / sizeof(ulong);
        var shift = ShiftTable(streamBytes);
        if (shift is null)
        {
            return Update(state, data);
        }

        var words = MemoryMarshal.Cast<byte, ulong>(data[..(StreamCount * streamBytes)]);
        var first = words[..wordsPerStream];
        var second = words.Slice(wordsPerStream, wordsPerStream);
        var third = words.Slice(2 * wordsPerStream, wordsPerStream);
        uint a = state, b = 0, c = 0;
        for (var i = 0; i < first.Length; i++)
        {
            a = BitOperations.Crc32C(a, LittleEndian(first[i]));
            b = BitOperations.Crc32C(b, LittleEndian(second[i]));
            c = BitOperations.Crc32C(c, LittleEndian(third[i]));
        }

        var joined = Shift(shift, Shift(shift, a) ^ b) ^ c;
        return Update(joined, data[(StreamCount * streamBytes)..]);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong LittleEndian(ulong word) => BitConverter.IsLittleEndian ? word : BinaryPrimitives.ReverseEndianness(word);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Shift(uint[] table, uint state) =>
        table[(byte)state] ^ table[256 + (byte)(state >> 8)] ^ table[512 + (byte)(state >> 16)] ^ table[768 + (state >> 24)];

    /// <summary>The tables of "run the register through <paramref name="length"/> zero bytes", or null when the cache is full.</summary>
    private static uint[]? ShiftTable(int length)
    {
        if (s_shiftTables.TryGetValue(length, out var table))
        {
            return table;
        }

        if (s_shiftTables.Count >= MaxCachedShiftLengths)
        {
            return null;
        }

        // The map is linear, so it is fixed by where it sends each of the 32 single-bit registers.
        Span<uint> basis = stackalloc uint[32];
        for (var bit = 0; bit < basis.Length; bit++)
        {
            var register = 1u << bit;
            for (var i = 0; i < length / sizeof(ulong); i++)
            {
                register = BitOperations.Crc32C(register, 0UL);
            }

            basis[bit] = register;
        }

        table = new uint[4 * 256];
        for (var octet = 0; octet < 4; octet++)
        {
            for (var value = 0; value < 256; value++)
            {
                uint image = 0;
                for (var bit = 0; bit < 8; bit++)
                {
                    if ((value & (1 << bit)) != 0)
                    {
                        image ^= basis[(octet * 8) + bit];
                    }
                }

                table[(octet * 256) + value] = image;
            }
        }

        return s_shiftTables.GetOrAdd(length, table);
    }
}
