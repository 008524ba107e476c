using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Core.Storage;

/// <summary>
/// CRC-32C (Castagnoli), the checksum on every page and WAL frame. BitOperations.Crc32C maps to
/// the SSE4.2 / ARMv8 CRC instruction when present; feeding it 8 bytes at a time keeps an 8 KB
/// page at a few microseconds.
/// </summary>
public static class Crc32C
{
    /// <summary>The standard CRC-32C of <paramref name="data"/> (initial value and final xor 0xFFFFFFFF).</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Append(0, data);

    /// <summary>
    /// The CRC-32C of (bytes that produced <paramref name="crc"/>) followed by <paramref name="data"/>;
    /// <c>Append(Compute(a), b) == Compute(a + b)</c>. Used to chain WAL frames.
    /// </summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data) => ~Update(~crc, data);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Update(uint state, ReadOnlySpan<byte> data)
    {
        var words = MemoryMarshal.Cast<byte, ulong>(data);
        foreach (var word in words)
        {
            state = BitOperations.Crc32C(state, BitConverter.IsLittleEndian ? word : BinaryPrimitives.ReverseEndianness(word));
        }

        foreach (var b in data[(words.Length * sizeof(ulong))..])
        {
            state = BitOperations.Crc32C(state, b);
        }

        return state;
    }
}
