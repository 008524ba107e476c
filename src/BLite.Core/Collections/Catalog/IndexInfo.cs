using BLite.Core.Query;

namespace BLite.Core.Collections.Catalog;

/// <summary>A secondary index as a catalog snapshot knows it: its definition, tree root and compiled paths.</summary>
internal sealed class IndexInfo
{
    public IndexInfo(IndexDefinition definition, uint rootPageId)
    {
        Definition = definition;
        RootPageId = rootPageId;
        var paths = new CompiledPath[definition.FieldPaths.Count];
        for (var i = 0; i < paths.Length; i++)
        {
            paths[i] = new CompiledPath(FieldPath.ParseIndexPath(definition.FieldPaths[i]));
        }

        Paths = paths;
    }

    public IndexDefinition Definition { get; }

    public uint RootPageId { get; }

    public IReadOnlyList<CompiledPath> Paths { get; }
}
