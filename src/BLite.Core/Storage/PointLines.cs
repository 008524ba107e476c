using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace BLite.Core.Storage;

/// <summary>
/// The point index's verdicts, one cache line per slot: everything a repeated lookup by key needs
/// (the key, the leaf and where the value lies in it, and the snapshots for which all of that
/// holds), so a hit reads one line of the table rather than a slot, an entry object and the
/// versions it references. A line is a seqlock: writers take it with one compare-exchange on its
/// stamp, readers copy it and check that the stamp did not move.
/// </summary>
/// <remarks>
/// The lines live in one array on the pinned object heap, so their addresses never change and the
/// first can be put on a 64-byte boundary: each line then fills exactly one cache line. The array
/// holds no references: the leaf's image is reached through the hot-page memo, so the table keeps
/// no image alive.
/// </remarks>
internal sealed class PointLines
{
    public const int LineBytes = 64;

    private readonly byte[] _memory;
    private readonly int _first;

    public unsafe PointLines(int count)
    {
        _memory = GC.AllocateArray<byte>(checked((count + 1) * LineBytes), pinned: true);
        var address = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(_memory));
        _first = (int)((LineBytes - (address & (LineBytes - 1))) & (LineBytes - 1));
        Count = count;
    }

    public int Count { get; }

    /// <summary>Bytes the lines take (the memory bound of the verdicts).</summary>
    public long Bytes => _memory.Length;

    // The caller's slot is the top bits of a hash shifted down to Count's range, never outside it.
    public ref PointLine this[int slot] =>
        ref Unsafe.As<byte, PointLine>(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_memory), _first + (slot * LineBytes)));
}

/// <summary>
/// One slot of <see cref="PointLines"/>: a key (as the words <see cref="ShortKey"/> makes of it and
/// its tree's root), the leaf page and slot a descent found it at, where its value lies in that
/// leaf, and the snapshots (<see cref="From"/> to <see cref="Until"/>, both included) for which every
/// page version on that descent's path is the one the snapshot reads.
/// </summary>
[StructLayout(LayoutKind.Sequential, Size = PointLines.LineBytes)]
internal struct PointLine
{
    /// <summary>Even while the line is stable; odd while a writer fills it.</summary>
    public int Stamp;
    public uint LeafPageId;
    public ulong High;
    public ulong Low;
    public ulong LengthAndRoot;
    public long From;
    public long Until;
    public uint HighestPageId;

    /// <summary>The leaf cell's value word: the value's length, and <c>BTreeNode.OverflowFlag</c> when it lives in an overflow chain.</summary>
    public uint ValueWord;
    public ushort Index;
    public ushort ValueOffset;

    /// <summary>Set by a lookup it answered, cleared by a miss on its pair: the replacement's second chance (outside the seqlock: a hint).</summary>
    public byte Used;
}
