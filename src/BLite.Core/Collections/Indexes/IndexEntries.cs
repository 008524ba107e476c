using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections.Indexes;

/// <summary>Lookups on a secondary index tree by field key.</summary>
internal static class IndexEntries
{
    /// <summary>
    /// Whether some document other than <paramref name="primaryKey"/> has an entry with exactly
    /// this field key. Field keys are self-delimiting, so the entries with equal field values are
    /// precisely those whose key starts with the field key.
    /// </summary>
    public static bool TryFindOtherOwner(BTree tree, IPageReader pages, ReadOnlySpan<byte> fieldKey, ReadOnlySpan<byte> primaryKey)
    {
        var cursor = TreeCursor.Open(tree, pages, KeyRange.Prefix(fieldKey), descending: false);
        while (cursor.MoveNext())
        {
            if (!SecondaryEntry.PrimaryKeyOf(cursor.Key, cursor.Value.Span).SequenceEqual(primaryKey))
            {
                return true;
            }
        }

        return false;
    }
}
