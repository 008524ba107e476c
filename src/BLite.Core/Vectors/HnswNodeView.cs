using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace BLite.Core.Vectors;

/// <summary>
/// Reads a node record in place (no copy, no allocation), for searches. Layout, little-endian:
/// <code>
///  0  u8   top layer L of the node (it is on layers 0..L)
///  1  u16  primary key length P, then P bytes: the document's encoded primary key
///  3+P f32 × dimensions: the vector as searched (normalized for cosine)
///  then per layer 0..L: u8 neighbour count n, n × u32 neighbour node ids
/// </code>
/// Floats are stored in the machine's order, which the engine requires to be little-endian
/// (<see cref="HnswGraph"/> refuses to open otherwise).
/// </summary>
internal readonly ref struct HnswNodeView
{
    private readonly ReadOnlySpan<byte> _record;
    private readonly int _linksOffset;

    public HnswNodeView(ReadOnlySpan<byte> record, int dimensions)
    {
        _record = record;
        var keyLength = BinaryPrimitives.ReadUInt16LittleEndian(record[1..]);
        var vectorOffset = 3 + keyLength;
        Vector = MemoryMarshal.Cast<byte, float>(record.Slice(vectorOffset, dimensions * sizeof(float)));
        _linksOffset = vectorOffset + (dimensions * sizeof(float));
    }

    public int TopLayer => _record[0];

    public ReadOnlySpan<byte> PrimaryKey => _record.Slice(3, BinaryPrimitives.ReadUInt16LittleEndian(_record[1..]));

    public ReadOnlySpan<float> Vector { get; }

    /// <summary>The raw neighbour ids (u32 LE each) on <paramref name="layer"/>; empty above the node's top layer.</summary>
    public ReadOnlySpan<byte> Links(int layer)
    {
        if (layer > TopLayer)
        {
            return default;
        }

        var offset = _linksOffset;
        for (var i = 0; i < layer; i++)
        {
            offset += 1 + (_record[offset] * sizeof(uint));
        }

        return _record.Slice(offset + 1, _record[offset] * sizeof(uint));
    }

    /// <summary>Bytes the record must have for its declared lists; the verifier compares it with the real length.</summary>
    public int ExpectedLength()
    {
        var offset = _linksOffset;
        for (var i = 0; i <= TopLayer; i++)
        {
            offset += 1 + (_record[offset] * sizeof(uint));
        }

        return offset;
    }

    public static uint LinkAt(ReadOnlySpan<byte> links, int index) => BinaryPrimitives.ReadUInt32LittleEndian(links[(index * sizeof(uint))..]);
}
