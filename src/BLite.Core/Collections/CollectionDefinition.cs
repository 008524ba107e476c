using BLite.Core.ChangeFeed;

namespace BLite.Core.Collections;

/// <summary>A collection and the secondary indexes it should have, as declared when a database is opened.</summary>
internal sealed class CollectionDefinition
{
    public CollectionDefinition(string name, IReadOnlyList<IndexDefinition>? indexes = null, IReadOnlyList<Vectors.VectorIndexDefinition>? vectorIndexes = null, ChangeFeedMode? changeFeed = null)
    {
        ChangeFeed = changeFeed is { } mode ? ChangeFeedModes.Checked(mode, nameof(changeFeed)) : null;
        VectorIndexes = vectorIndexes ?? [];
        CatalogNames.Validate(name, "collection name");
        Name = name;
        Indexes = indexes ?? [];
        foreach (var index in Indexes)
        {
            ArgumentNullException.ThrowIfNull(index, nameof(indexes));
        }
    }

    public string Name { get; }

    public IReadOnlyList<IndexDefinition> Indexes { get; }

    public IReadOnlyList<Vectors.VectorIndexDefinition> VectorIndexes { get; }

    /// <summary>The change feed the collection should have; null leaves it as stored.</summary>
    public ChangeFeedMode? ChangeFeed { get; }
}
