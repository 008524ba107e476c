namespace BLite.Core.Collections.Catalog;

/// <summary>The collections and indexes as of one catalog generation. Immutable and shared.</summary>
internal sealed class CatalogSnapshot
{
    private readonly Dictionary<string, CollectionInfo> _collections;

    public CatalogSnapshot(ulong generation, Dictionary<string, CollectionInfo> collections)
    {
        Generation = generation;
        _collections = collections;
    }

    public ulong Generation { get; }

    public IEnumerable<CollectionInfo> Collections => _collections.Values;

    public int Count => _collections.Count;

    public CollectionInfo? Find(string name) => _collections.GetValueOrDefault(name);

    public CatalogSnapshot With(ulong generation, CollectionInfo collection)
    {
        var copy = new Dictionary<string, CollectionInfo>(_collections, StringComparer.Ordinal)
        {
            [collection.Name] = collection,
        };
        return new CatalogSnapshot(generation, copy);
    }

    public CatalogSnapshot Without(ulong generation, string name)
    {
        var copy = new Dictionary<string, CollectionInfo>(_collections, StringComparer.Ordinal);
        copy.Remove(name);
        return new CatalogSnapshot(generation, copy);
    }
}
