using System.Runtime.InteropServices;
using BLite.Core.BTrees;
using BLite.Core.Diagnostics;
using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

/// <summary>
/// Verify's graph checks catch real damage. Each case damages the graph's B+ tree directly inside
/// a write transaction, checks that transaction's view, then rolls it back (so the database
/// disposes clean).
/// </summary>
public sealed class VectorVerifyTests
{
    private const int Nodes = 60;

    private static List<string> ProblemsAfter(Action<BTree, HnswMeta, IPageWriter> damage)
    {
        using var test = new CollectionsTestDatabase();
        VectorIndexTests.Fill(test, new GaussianClusters(seed: 31, 128), Nodes);
        var raw = test.Database.GetRawCollection("notes");
        var problems = new List<string>();
        using (var write = test.Database.BeginWrite())
        {
            var collection = raw.Resolve(write)!;
            var index = collection.FindVectorIndex("byEmbedding")!;
            var graph = index.Open();
            VectorIndexVerifier.Verify(raw, write, collection, index, problems);
            Assert.Empty(problems);

            damage(BTree.Open(graph.RootPageId), graph.ReadMeta(write), write);
            VectorIndexVerifier.Verify(raw, write, collection, index, problems);
        }

        Assert.NotEmpty(problems);
        return problems;
    }

    private static (uint Id, byte[] Record) FirstNodeOtherThan(BTree tree, IPageReader pages, uint entry)
    {
        var cursor = tree.Scan(pages, KeyRange.Prefix([HnswKeys.NodeSpace]));
        while (cursor.MoveNext())
        {
            var id = HnswKeys.ReadNodeKey(cursor.Key);
            if (id != entry)
            {
                return (id, cursor.ValueSpan.ToArray());
            }
        }

        throw new InvalidOperationException("the graph has only its entry point");
    }

    private static byte[] NodeKey(uint id)
    {
        var key = new byte[HnswKeys.NodeKeySize];
        HnswKeys.WriteNodeKey(key, id);
        return key;
    }

    [Fact]
    public void A_removed_node_record_shows_as_dangling_links_and_a_document_without_a_node()
    {
        var problems = ProblemsAfter((tree, meta, pages) =>
            Assert.True(tree.Delete(pages, NodeKey(FirstNodeOtherThan(tree, pages, meta.EntryNode).Id))));

        Assert.Contains(problems, p => p.Contains("which was deleted", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("has a vector but no node", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains($"the graph holds {Nodes - 1}", StringComparison.Ordinal));
    }

    [Fact]
    public void A_missing_or_invented_reverse_key_is_reported()
    {
        var missing = ProblemsAfter((tree, _, pages) =>
        {
            var cursor = tree.Scan(pages, KeyRange.Prefix([HnswKeys.ReverseSpace]));
            Assert.True(cursor.MoveNext());
            var key = cursor.Key.ToArray();
            Assert.True(tree.Delete(pages, key));
        });
        Assert.Contains(missing, p => p.Contains("reverse keys", StringComparison.Ordinal));

        var invented = ProblemsAfter((tree, meta, pages) =>
        {
            var key = new byte[HnswKeys.ReverseKeySize];
            HnswKeys.WriteReverseKey(key, meta.EntryNode, layer: 0, source: meta.EntryNode);
            Assert.True(tree.Insert(pages, key, []));
        });
        Assert.Contains(invented, p => p.Contains("which does not exist", StringComparison.Ordinal));
    }

    [Fact]
    public void A_node_holding_another_vector_than_its_document_is_reported()
    {
        var problems = ProblemsAfter((tree, meta, pages) =>
        {
            var (id, record) = FirstNodeOtherThan(tree, pages, meta.EntryNode);
            var vector = new HnswNodeView(record, 128).Vector.ToArray();
            var offset = record.AsSpan().IndexOf(MemoryMarshal.AsBytes(vector.AsSpan()));
            Assert.True(offset > 0);
            MemoryMarshal.Cast<byte, float>(record.AsSpan(offset, vector.Length * sizeof(float)))[0] += 1f;
            tree.Upsert(pages, NodeKey(id), record);
        });

        Assert.Contains(problems, p => p.Contains("holds another vector than the document", StringComparison.Ordinal));
    }

    [Fact]
    public void A_node_no_link_leads_to_is_reported_unreachable()
    {
        var problems = ProblemsAfter((tree, meta, pages) =>
        {
            var (_, record) = FirstNodeOtherThan(tree, pages, meta.EntryNode);
            Assert.True(tree.Insert(pages, NodeKey(meta.NextNodeId + 1000), record));
        });

        Assert.Contains(problems, p => p.Contains("1 of 61 nodes cannot be reached from the entry point", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("the header counts 60 nodes", StringComparison.Ordinal));
    }
}
