using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.Storage;

namespace BLite.Core.Diagnostics;

/// <summary>
/// Verify's check of one vector index: the graph's own structure (<see cref="Vectors.HnswGraph.Verify"/>)
/// and its agreement with the collection: exactly the documents with a vector are nodes, each
/// holding that document's vector.
/// </summary>
internal static class VectorIndexVerifier
{
    public static void Verify(RawCollection handle, IPageReader pages, CollectionInfo collection, VectorIndexInfo index, List<string> problems)
    {
        var where = $"vector index '{index.Definition.Name}' of collection '{collection.Name}'";
        var graph = index.Open();
        var nodes = graph.Verify(pages, problems);
        var indexed = 0;
        var cursor = TreeCursor.Open(BTree.Open(collection.PrimaryRoot), pages, KeyRange.All, descending: false);
        while (cursor.MoveNext())
        {
            float[]? expected;
            try
            {
                expected = handle.ExtractVector(cursor.Value.Span, index);
            }
            catch (BLiteException ex)
            {
                problems.Add($"{where}: document {IndexKeyText.Describe(cursor.Key)} holds a vector the index refuses: {ex.Message}");
                continue;
            }

            if (expected is null)
            {
                continue;
            }

            indexed++;
            // Through the node records Verify read (not the document map, which Verify checks on
            // its own), so a map entry pointing at a missing node is reported, not thrown.
            var stored = nodes.TryGetValue(cursor.Key.ToArray(), out var nodeId) ? graph.FindNodeVector(pages, nodeId) : null;
            if (stored is null)
            {
                problems.Add($"{where}: document {IndexKeyText.Describe(cursor.Key)} has a vector but no node.");
            }
            else if (!stored.AsSpan().SequenceEqual(expected))
            {
                problems.Add($"{where}: the node of document {IndexKeyText.Describe(cursor.Key)} holds another vector than the document.");
            }
        }

        if (indexed != nodes.Count)
        {
            problems.Add($"{where}: {indexed} documents have a vector but the graph holds {nodes.Count} nodes.");
        }
    }
}
