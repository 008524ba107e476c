using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
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
/// verbatim and would make the comparison cost more than the allocation it saves. Each slot keeps
/// its value's first and last eight bytes and its length beside it, read while hashing: for a
/// value of at most sixteen bytes (most of those worth sharing) they are all its bytes, so a hit
/// is three integer comparisons, without a call to compare the text or a read of the string. A
/// table is not
/// thread-safe: <see cref="ForCurrentThread"/> gives each thread its own.
/// </remarks>
public sealed class BsonStringTable
{
    /// <summary>The longest string (in UTF-8 bytes) the table keeps.</summary>
    public const int MaxBytes = 64;

    /// <summary>Values up to this long are told apart by their slot's two words alone.</summary>
    private const int WholeInWords = 16;

    private const int SlotBits = 9;

    [ThreadStatic]
    private static BsonStringTable? _current;

    private readonly Slot[] _slots = new Slot[1 << SlotBits];

    /// <summary>The calling thread's table, created on first use.</summary>
    public static BsonStringTable ForCurrentThread => _current ??= new BsonStringTable();

    /// <summary>
    /// The string whose UTF-8 bytes are <paramref name="utf8"/> (not empty, at most
    /// <see cref="MaxBytes"/> long): the kept instance when an equal one is in the table,
    /// otherwise a newly decoded one, kept when it is ASCII.
    /// </summary>
    internal string GetOrDecode(ReadOnlySpan<byte> utf8, int offset)
    {
        var length = utf8.Length;
        ref var first = ref MemoryMarshal.GetReference(utf8);
        ulong head;
        ulong tail;
        // The first and last eight bytes (four, or every byte, for shorter values) and the length:
        // a constant cost whatever the length, and for values of at most sixteen bytes, all of them.
        if (length >= 8)
        {
            head = Unsafe.ReadUnaligned<ulong>(ref first);
            tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref first, length - 8));
        }
        else if (length >= 4)
        {
            head = Unsafe.ReadUnaligned<uint>(ref first) | ((ulong)Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref first, length - 4)) << 32);
            tail = 0;
        }
        else
        {
            head = first | ((ulong)Unsafe.Add(ref first, length / 2) << 8) | ((ulong)Unsafe.Add(ref first, length - 1) << 16);
            tail = 0;
        }

        var index = (int)(((head ^ BitOperations.RotateLeft(tail, 29) ^ (ulong)length) * 0x9E3779B97F4A7C15UL) >> (64 - SlotBits));
        ref var slot = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), index);
        // The length is kept in the slot, not read from the kept string: for a value of at most
        // sixteen bytes a hit then never touches the string object, which is rarely in cache.
        if (slot.Head == head && slot.Tail == tail && slot.Length == length && slot.Value is { } kept
            && (length <= WholeInWords || MiddleEquals(ref first, length, kept)))
        {
            return kept;
        }

        string decoded;
        if (length <= WholeInWords && ((head | tail) & HighBits) == 0)
        {
            // The two words hold every byte and none has its high bit set: the value is ASCII,
            // known without a pass over it, and each byte widens to its own char.
            decoded = string.Create(length, (head, tail), _widenWords);
        }
        else
        {
            decoded = BsonSpanReader.DecodeUtf8(utf8, offset, out var ascii);
            if (!ascii)
            {
                return decoded;
            }
        }

        slot.Value = decoded;
        slot.Head = head;
        slot.Tail = tail;
        slot.Length = length;
        return decoded;
    }

    private const ulong HighBits = 0x8080808080808080UL;

    private static readonly System.Buffers.SpanAction<char, (ulong Head, ulong Tail)> _widenWords = WidenWords;

    /// <summary>
    /// Writes the chars of an ASCII value of at most <see cref="WholeInWords"/> bytes from the
    /// words <see cref="GetOrDecode"/> read it into (the same overlapping layout, so some chars are
    /// written twice with the same value).
    /// </summary>
    private static void WidenWords(Span<char> chars, (ulong Head, ulong Tail) words)
    {
        var length = chars.Length;
        ref var destination = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(chars));
        if (length >= 8)
        {
            Widen(words.Head).StoreUnsafe(ref destination);
            Widen(words.Tail).StoreUnsafe(ref destination, (nuint)(length - 8));
        }
        else if (length >= 4)
        {
            var both = Widen(words.Head).AsUInt64();
            Unsafe.WriteUnaligned(ref Unsafe.As<ushort, byte>(ref destination), both.GetElement(0));
            Unsafe.WriteUnaligned(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref destination, length - 4)), both.GetElement(1));
        }
        else
        {
            destination = (byte)words.Head;
            Unsafe.Add(ref destination, length / 2) = (byte)(words.Head >> 8);
            Unsafe.Add(ref destination, length - 1) = (byte)(words.Head >> 16);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ushort> Widen(ulong eightBytes) => Vector128.WidenLower(Vector128.CreateScalarUnsafe(eightBytes).AsByte());

    /// <summary>
    /// Whether the bytes between the first and last eight (which the slot's words already matched)
    /// equal the kept value's chars: for up to 32 bytes two widened eight-byte windows cover them
    /// without a call; longer values compare in full.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool MiddleEquals(ref byte first, int length, string kept)
    {
        if (length > 2 * WholeInWords)
        {
            return Ascii.Equals(MemoryMarshal.CreateReadOnlySpan(ref first, length), kept);
        }

        ref var chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(kept.AsSpan()));
        var late = length - WholeInWords;
        return Widen(Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref first, 8))) == Vector128.LoadUnsafe(ref chars, 8)
            && Widen(Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref first, late))) == Vector128.LoadUnsafe(ref chars, (nuint)late);
    }

    /// <summary>A kept value with the words and length that identify it (a kept value is ASCII: one char per byte).</summary>
    private struct Slot
    {
        public string? Value;
        public ulong Head;
        public ulong Tail;
        public int Length;
    }
}
