using BLite.Core.BTrees;
using BLite.Core.ChangeFeed;

namespace BLite.Core.Collections.Catalog;

/// <summary>One collection as a catalog snapshot knows it. Immutable: a change makes a new one.</summary>
internal sealed class CollectionInfo
{
    public CollectionInfo(string name, uint id, uint primaryRoot, uint statsPage, IReadOnlyList<IndexInfo> indexes, IReadOnlyList<VectorIndexInfo>? vectorIndexes = null, ChangeFeedMode changeFeed = ChangeFeedMode.Off)
    {
        ChangeFeed = changeFeed;
        VectorIndexes = vectorIndexes ?? [];
        Name = name;
        Id = id;
        PrimaryRoot = primaryRoot;
        StatsPage = statsPage;
        Indexes = indexes;
    }

    public string Name { get; }

    /// <summary>The primary index's tree, opened once rather than by every operation (the tree object only names its root).</summary>
    public BTree PrimaryTree => _primaryTree ??= BTree.Open(PrimaryRoot);

    private BTree? _primaryTree;

    public uint Id { get; }

    public uint PrimaryRoot { get; }

    public uint StatsPage { get; }

    public IReadOnlyList<IndexInfo> Indexes { get; }

    public IReadOnlyList<VectorIndexInfo> VectorIndexes { get; }

    /// <summary>Whether this collection's changes are journaled for the change feed.</summary>
    public ChangeFeedMode ChangeFeed { get; }

    public bool JournalsChanges => ChangeFeed != ChangeFeedMode.Off;

    public VectorIndexInfo? FindVectorIndex(string indexName)
    {
        foreach (var index in VectorIndexes)
        {
            if (string.Equals(index.Definition.Name, indexName, StringComparison.Ordinal))
            {
                return index;
            }
        }

        return null;
    }

    public IndexInfo? FindIndex(string indexName)
    {
        foreach (var index in Indexes)
        {
            if (string.Equals(index.Definition.Name, indexName, StringComparison.Ordinal))
            {
                return index;
            }
        }

        return null;
    }

    public CollectionInfo WithIndexes(IReadOnlyList<IndexInfo> indexes) => new(Name, Id, PrimaryRoot, StatsPage, indexes, VectorIndexes, ChangeFeed);

    public CollectionInfo WithVectorIndexes(IReadOnlyList<VectorIndexInfo> vectorIndexes) => new(Name, Id, PrimaryRoot, StatsPage, Indexes, vectorIndexes, ChangeFeed);

    public CollectionInfo WithChangeFeed(ChangeFeedMode mode) => new(Name, Id, PrimaryRoot, StatsPage, Indexes, VectorIndexes, mode);
}
