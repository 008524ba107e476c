using BLite.Core.Collections.Indexes;

namespace BLite.Core.Collections.Catalog;

/// <summary>A secondary index as a catalog snapshot knows it: its definition, tree root and compiled paths.</summary>
internal sealed class IndexInfo
{
    public IndexInfo(IndexDefinition definition, uint rootPageId)
    {
        Definition = definition;
        RootPageId = rootPageId;
        var paths = new CompiledFieldPath[definition.FieldPaths.Count];
        for (var i = 0; i < paths.Length; i++)
        {
            paths[i] = new CompiledFieldPath(definition.FieldPaths[i]);
        }

        Paths = paths;
    }

    public IndexDefinition Definition { get; }

    public uint RootPageId { get; }

    public IReadOnlyList<CompiledFieldPath> Paths { get; }
}
