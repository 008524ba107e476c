using BLite.Core.Query;
using BLite.Core.Vectors;

namespace BLite.Core.Collections.Catalog;

/// <summary>A vector index as a catalog snapshot knows it: its definition, graph tree root and compiled path.</summary>
internal sealed class VectorIndexInfo
{
    public VectorIndexInfo(VectorIndexDefinition definition, uint rootPageId)
    {
        Definition = definition;
        RootPageId = rootPageId;
        Path = new CompiledPath(FieldPath.ParseIndexPath(definition.FieldPath));
    }

    public VectorIndexDefinition Definition { get; }

    public uint RootPageId { get; }

    public CompiledPath Path { get; }

    public HnswGraph Open() => new(RootPageId, Definition);
}
