using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

internal sealed partial class RawCollection
{
    /// <summary>
    /// Creates the index (and the collection, if missing) and builds it over the documents
    /// already stored. False when an identical index exists; an index of the same name with a
    /// different definition is refused (drop it first), never silently redefined.
    /// <paramref name="progress"/> receives the number of stored documents read so far; writing
    /// the sorted entries follows the last report.
    /// </summary>
    public bool EnsureIndex(IPageWriter pages, IndexDefinition definition, IProgress<long>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(definition);
        var collection = Resolve(pages);
        var existing = collection?.FindIndex(definition.Name);
        if (existing is not null)
        {
            if (existing.Definition.Equals(definition))
            {
                return false;
            }

            throw new BLiteException(
                $"Collection '{Name}' already has an index '{definition.Name}' defined as {existing.Definition}; drop it before redefining it as {definition}.");
        }

        var index = new IndexInfo(definition, 0);
        var entries = collection is null ? [] : CollectEntries(pages, collection, index, progress);
        collection ??= _database.Catalog.CreateCollection(pages, Name);

        var tree = BTree.Create(pages);
        Span<byte> value = stackalloc byte[SecondaryEntry.ValueSize];
        foreach (var entry in entries)
        {
            SecondaryEntry.WriteValue(value, entry.FieldKeyLength);
            tree.Insert(pages, entry.Key, value);
        }

        var indexes = new List<IndexInfo>(collection.Indexes) { new(definition, tree.RootPageId) };
        _database.Catalog.ReplaceCollection(pages, collection.WithIndexes(indexes));
        return true;
    }

    /// <summary>Drops the index and frees all of its pages; false when there is no such index.</summary>
    public bool DropIndex(IPageWriter pages, string indexName)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(indexName);
        var collection = Resolve(pages);
        var index = collection?.FindIndex(indexName);
        if (collection is null || index is null)
        {
            return false;
        }

        BTree.Open(index.RootPageId).Drop(pages);
        var remaining = new List<IndexInfo>(collection.Indexes.Count - 1);
        foreach (var other in collection.Indexes)
        {
            if (!ReferenceEquals(other, index))
            {
                remaining.Add(other);
            }
        }

        _database.Catalog.ReplaceCollection(pages, collection.WithIndexes(remaining));
        return true;
    }

    /// <summary>Drops the collection with its documents and indexes, freeing every page they used.</summary>
    public bool Drop(IPageWriter pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return false;
        }

        foreach (var index in collection.Indexes)
        {
            BTree.Open(index.RootPageId).Drop(pages);
        }

        foreach (var vectorIndex in collection.VectorIndexes)
        {
            vectorIndex.Open().Drop(pages);
        }

        Primary(collection).Drop(pages);
        pages.FreePage(collection.StatsPage);
        _database.Catalog.RemoveCollection(pages, collection);
        return true;
    }

    /// <summary>
    /// Every entry the new index needs, sorted and checked for uniqueness before the first page is
    /// written, so a violation leaves the transaction untouched. Sorted input also makes the build
    /// append-only at the right edge of the tree.
    /// </summary>
    private List<BuildEntry> CollectEntries(IPageReader pages, CollectionInfo collection, IndexInfo index, IProgress<long>? progress)
    {
        var entries = new List<BuildEntry>();
        var cursor = TreeCursor.Open(Primary(collection), pages, KeyRange.All, descending: false);
        long read = 0;
        while (cursor.MoveNext())
        {
            progress?.Report(++read);
            var primaryKey = cursor.Key;
            var document = cursor.Value.Span;
            foreach (var fieldKey in BuildKeys(document, index, primaryKey))
            {
                entries.Add(new BuildEntry(SecondaryEntry.ComposeKey(fieldKey, primaryKey), fieldKey.Length));
            }
        }

        entries.Sort(static (a, b) => a.Key.AsSpan().SequenceCompareTo(b.Key));
        if (index.Definition.Unique)
        {
            for (var i = 1; i < entries.Count; i++)
            {
                var previous = entries[i - 1];
                var current = entries[i];
                if (previous.FieldKeyLength == current.FieldKeyLength
                    && previous.Key.AsSpan(0, previous.FieldKeyLength).SequenceEqual(current.Key.AsSpan(0, current.FieldKeyLength)))
                {
                    throw new BLiteUniqueConstraintException(Name, index.Definition.Name, IndexKeyText.Describe(current.Key.AsSpan(0, current.FieldKeyLength)));
                }
            }
        }

        return entries;
    }

    private readonly record struct BuildEntry(byte[] Key, int FieldKeyLength);
}
