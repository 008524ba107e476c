using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections.Catalog;

/// <summary>Reads catalog-tree records of one kind (one key tag), copied so they outlive the scan.</summary>
internal static class CatalogTreeScan
{
    public static List<(byte[] Key, byte[] Value)> WithPrefix(BTree tree, IPageReader pages, ReadOnlySpan<byte> prefix)
    {
        var records = new List<(byte[] Key, byte[] Value)>();
        var cursor = TreeCursor.Open(tree, pages, KeyRange.Prefix(prefix), descending: false);
        while (cursor.MoveNext())
        {
            records.Add((cursor.Key.ToArray(), cursor.Value.ToArray()));
        }

        return records;
    }
}
