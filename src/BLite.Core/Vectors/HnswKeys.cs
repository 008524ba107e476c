using System.Buffers.Binary;

namespace BLite.Core.Vectors;

/// <summary>
/// The key spaces of the one B+ tree that holds an HNSW graph (docs/vector.md, "Storage"):
/// <code>
/// 0x00                                   → meta: u32 entry node, u8 top layer, u32 next node id, u32 node count
/// 0x01 node id (u32 BE)                  → node record (HnswNode)
/// 0x02 primary key                       → node id (u32 LE)
/// 0x03 target (u32 BE) layer (u8) source (u32 BE) → empty: the reverse of the edge source→target
/// </code>
/// Reverse edges let a delete find every node that links to the one leaving, so no edge is left
/// pointing at a deleted node.
/// </summary>
internal static class HnswKeys
{
    public const byte MetaSpace = 0x00;
    public const byte NodeSpace = 0x01;
    public const byte DocumentSpace = 0x02;
    public const byte ReverseSpace = 0x03;
    public const int NodeKeySize = 5;
    public const int ReverseKeySize = 10;
    public const int ReversePrefixSize = 6;
    public const int MetaSize = 13;

    public static ReadOnlySpan<byte> MetaKey => [MetaSpace];

    public static void WriteNodeKey(Span<byte> key, uint nodeId)
    {
        key[0] = NodeSpace;
        BinaryPrimitives.WriteUInt32BigEndian(key[1..], nodeId);
    }

    public static uint ReadNodeKey(ReadOnlySpan<byte> key) => BinaryPrimitives.ReadUInt32BigEndian(key[1..]);

    public static byte[] DocumentKey(ReadOnlySpan<byte> primaryKey)
    {
        var key = new byte[primaryKey.Length + 1];
        key[0] = DocumentSpace;
        primaryKey.CopyTo(key.AsSpan(1));
        return key;
    }

    public static void WriteReverseKey(Span<byte> key, uint target, int layer, uint source)
    {
        WriteReversePrefix(key, target, layer);
        BinaryPrimitives.WriteUInt32BigEndian(key[6..], source);
    }

    public static void WriteReversePrefix(Span<byte> key, uint target, int layer)
    {
        key[0] = ReverseSpace;
        BinaryPrimitives.WriteUInt32BigEndian(key[1..], target);
        key[5] = checked((byte)layer);
    }

    public static uint ReadReverseSource(ReadOnlySpan<byte> key) => BinaryPrimitives.ReadUInt32BigEndian(key[6..]);
}

/// <summary>The graph's header record (key <see cref="HnswKeys.MetaKey"/>).</summary>
internal record struct HnswMeta(uint EntryNode, int TopLayer, uint NextNodeId, uint Count)
{
    public static HnswMeta Empty => new(0, 0, 1, 0);

    public static HnswMeta Read(ReadOnlySpan<byte> value) => new(
        BinaryPrimitives.ReadUInt32LittleEndian(value),
        value[4],
        BinaryPrimitives.ReadUInt32LittleEndian(value[5..]),
        BinaryPrimitives.ReadUInt32LittleEndian(value[9..]));

    public readonly void Write(Span<byte> value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(value, EntryNode);
        value[4] = checked((byte)TopLayer);
        BinaryPrimitives.WriteUInt32LittleEndian(value[5..], NextNodeId);
        BinaryPrimitives.WriteUInt32LittleEndian(value[9..], Count);
    }
}
