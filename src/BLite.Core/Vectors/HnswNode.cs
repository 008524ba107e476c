using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace BLite.Core.Vectors;

/// <summary>
/// A node loaded for change during one write (layout: <see cref="HnswNodeView"/>). It remembers
/// the links it was loaded with, so writing it back can add and remove exactly the reverse-edge
/// keys that changed.
/// </summary>
internal sealed class HnswNode
{
    public HnswNode(uint id, int topLayer, byte[] primaryKey, float[] vector, bool isNew)
    {
        Id = id;
        TopLayer = topLayer;
        PrimaryKey = primaryKey;
        Vector = vector;
        Links = new List<uint>[topLayer + 1];
        StoredLinks = new uint[topLayer + 1][];
        for (var i = 0; i <= topLayer; i++)
        {
            Links[i] = [];
            StoredLinks[i] = [];
        }

        IsNew = isNew;
    }

    public uint Id { get; }

    public int TopLayer { get; }

    public byte[] PrimaryKey { get; }

    public float[] Vector { get; }

    public List<uint>[] Links { get; }

    /// <summary>The links as the tree holds them (empty for a node not yet written).</summary>
    public uint[][] StoredLinks { get; }

    public bool IsNew { get; set; }

    public bool IsDirty { get; set; }

    public bool IsDeleted { get; set; }

    public static HnswNode Load(uint id, ReadOnlySpan<byte> record, int dimensions)
    {
        var view = new HnswNodeView(record, dimensions);
        var node = new HnswNode(id, view.TopLayer, view.PrimaryKey.ToArray(), view.Vector.ToArray(), isNew: false);
        for (var layer = 0; layer <= view.TopLayer; layer++)
        {
            var links = view.Links(layer);
            var stored = new uint[links.Length / sizeof(uint)];
            for (var i = 0; i < stored.Length; i++)
            {
                stored[i] = HnswNodeView.LinkAt(links, i);
            }

            node.StoredLinks[layer] = stored;
            node.Links[layer].AddRange(stored);
        }

        return node;
    }

    public byte[] Encode()
    {
        var size = 3 + PrimaryKey.Length + (Vector.Length * sizeof(float));
        for (var layer = 0; layer <= TopLayer; layer++)
        {
            size += 1 + (Links[layer].Count * sizeof(uint));
        }

        var record = new byte[size];
        var span = record.AsSpan();
        span[0] = checked((byte)TopLayer);
        BinaryPrimitives.WriteUInt16LittleEndian(span[1..], checked((ushort)PrimaryKey.Length));
        PrimaryKey.CopyTo(span[3..]);
        var offset = 3 + PrimaryKey.Length;
        MemoryMarshal.AsBytes(Vector.AsSpan()).CopyTo(span[offset..]);
        offset += Vector.Length * sizeof(float);
        for (var layer = 0; layer <= TopLayer; layer++)
        {
            var links = Links[layer];
            span[offset++] = checked((byte)links.Count);
            foreach (var link in links)
            {
                BinaryPrimitives.WriteUInt32LittleEndian(span[offset..], link);
                offset += sizeof(uint);
            }
        }

        return record;
    }
}
