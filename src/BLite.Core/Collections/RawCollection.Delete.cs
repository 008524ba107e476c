using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

internal sealed partial class RawCollection
{
    /// <summary>Removes the document with this encoded primary key; false when there is none.</summary>
    public bool Delete(IPageWriter pages, ReadOnlySpan<byte> primaryKey)
    {
        var deleted = DeleteCore(pages, primaryKey);
        if (deleted)
        {
            CountWritten();
        }

        return deleted;
    }

    private bool DeleteCore(IPageWriter pages, ReadOnlySpan<byte> primaryKey)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return false;
        }

        if (collection.Indexes.Count == 0 && collection.VectorIndexes.Count == 0 && !collection.JournalsChanges)
        {
            // Without secondary indexes the old document is not needed: one descent removes it.
            if (!Primary(collection).Delete(pages, primaryKey))
            {
                return false;
            }

            DocumentCount.Add(pages, collection, -1);
            return true;
        }

        if (!Primary(collection).TryGet(pages, primaryKey, out var old))
        {
            return false;
        }

        if (collection.JournalsChanges)
        {
            // Before the delete: the old image lives in a page the delete rewrites.
            JournalDelete(pages, collection, old.Span);
        }

        var removed = new List<byte[]>[collection.Indexes.Count];
        for (var i = 0; i < removed.Length; i++)
        {
            removed[i] = BuildKeys(old.Span, collection.Indexes[i], primaryKey);
        }

        for (var i = 0; i < removed.Length; i++)
        {
            DeleteEntries(pages, collection.Indexes[i], removed[i], primaryKey);
        }

        foreach (var vectorIndex in collection.VectorIndexes)
        {
            vectorIndex.Open().Delete(pages, primaryKey);
        }

        Primary(collection).Delete(pages, primaryKey);
        DocumentCount.Add(pages, collection, -1);
        return true;
    }
}
