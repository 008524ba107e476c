using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Core.Tests.Collections;
using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

/// <summary>
/// The in-memory walk copy (HnswWalkCopy) must be invisible except for speed: a snapshot searching
/// its float32 vectors gets exactly what the page walk gives, its int8 walk returns exact distances
/// and nearly the same neighbours, and no reader ever sees another snapshot's graph.
/// </summary>
public sealed class VectorWalkCopyTests
{
    private const int Dimensions = 128;

    private static HnswGraph Graph(CollectionsTestDatabase test, IPageReader pages) =>
        test.Database.GetRawCollection("notes").FindVectorIndex(pages, "byEmbedding")!.Open();

    /// <summary>Searches <paramref name="read"/> until its snapshot's copy exists, and returns how many searches that took.</summary>
    private static int SearchUntilCopied(HnswGraph graph, IPageReader read, GaussianClusters data)
    {
        for (var searches = 1; searches <= 100; searches++)
        {
            graph.Search(read, data.Next(), 10, 64, null, out _);
            if (HnswWalkCopies.Find(read, graph.RootPageId) is not null)
            {
                return searches;
            }
        }

        throw new Xunit.Sdk.XunitException("100 searches of one snapshot never built its walk copy");
    }

    private static void AssertSame(List<VectorMatch> expected, List<VectorMatch> actual)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i].PrimaryKey, actual[i].PrimaryKey);
            Assert.Equal(expected[i].Distance, actual[i].Distance);
        }
    }

    [Fact]
    public void A_stable_snapshot_moves_to_the_copy_after_walks_worth_one_build_and_gets_exactly_the_page_walk_results()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 31, Dimensions);
        VectorIndexTests.Fill(test, data, 1500);
        using var read = test.Database.BeginRead();
        var graph = Graph(test, read);

        var searches = SearchUntilCopied(graph, read, data);

        Assert.True(searches > 1, "the first walk of a snapshot does not pay for a copy yet");
        var meta = graph.ReadMeta(read);
        var someKeys = new VectorCandidateFilter(key => key.ToArray().Sum(b => b) % 3 != 0);
        for (var q = 0; q < 30; q++)
        {
            var query = data.Next();
            var filter = q % 2 == 0 ? null : someKeys;
            var fromCopy = graph.Search(read, query, 10, 32, filter, out var copyVisited, walkCodes: false);
            var fromPages = graph.WalkPages(read, meta, query, 10, 32, filter, out var pageVisited);
            Assert.Equal(10, fromCopy.Count);
            AssertSame(fromPages, fromCopy);
            Assert.Equal(pageVisited, copyVisited);
            Assert.All(fromCopy, match => Assert.True(filter?.Invoke(match.PrimaryKey) ?? true, "every match passes the filter"));
        }
    }

    [Fact]
    public void A_walk_copy_search_allocates_the_same_whether_it_visits_few_nodes_or_many()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 33, Dimensions);
        VectorIndexTests.Fill(test, data, 1500);
        using var read = test.Database.BeginRead();
        var graph = Graph(test, read);
        SearchUntilCopied(graph, read, data);
        var query = data.Next();

        (long Bytes, int Visited) Measure(int ef)
        {
            graph.Search(read, query, 10, ef, null, out _);
            var before = GC.GetAllocatedBytesForCurrentThread();
            graph.Search(read, query, 10, ef, null, out var visited);
            return (GC.GetAllocatedBytesForCurrentThread() - before, visited);
        }

        var narrow = Measure(16);
        var wide = Measure(400);

        Assert.True(wide.Visited >= 4 * narrow.Visited, $"ef 400 visited {wide.Visited} nodes, ef 16 {narrow.Visited}");
        Assert.True(Math.Abs(wide.Bytes - narrow.Bytes) <= 512, $"ef 16 allocated {narrow.Bytes} bytes, ef 400 {wide.Bytes}: a search must not allocate per visited node");
    }

    [Theory]
    [InlineData(VectorMetric.Euclidean)]
    [InlineData(VectorMetric.Cosine)]
    [InlineData(VectorMetric.DotProduct)]
    public void The_int8_walk_returns_exact_distances_in_order_and_nearly_the_page_walk_neighbours(VectorMetric metric)
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 43, Dimensions);
        VectorIndexTests.Fill(test, data, 1500, metric);
        using var read = test.Database.BeginRead();
        var graph = Graph(test, read);
        SearchUntilCopied(graph, read, data);
        var meta = graph.ReadMeta(read);
        var someKeys = new VectorCandidateFilter(key => key.ToArray().Sum(b => b) % 3 != 0);
        double shared = 0;
        const int queries = 30;
        for (var q = 0; q < queries; q++)
        {
            var query = new float[Dimensions];
            VectorDistance.Prepare(VectorIndexTests.Index(metric), data.Next(), query, "query");
            var filter = q % 2 == 0 ? null : someKeys;
            var fromCodes = graph.Search(read, query, 10, 64, filter, out var visited);
            var fromPages = graph.WalkPages(read, meta, query, 10, 64, filter, out _);
            var exact = graph.ExactSearch(read, query, 1500, filter).ToDictionary(match => Convert.ToHexString(match.PrimaryKey), match => match.Distance);

            Assert.Equal(10, fromCodes.Count);
            Assert.True(visited > 10, "the search walked the graph");
            for (var i = 0; i < fromCodes.Count; i++)
            {
                Assert.True(filter?.Invoke(fromCodes[i].PrimaryKey) ?? true, "every match passes the filter");
                Assert.Equal(exact[Convert.ToHexString(fromCodes[i].PrimaryKey)], fromCodes[i].Distance);
                Assert.True(i == 0 || fromCodes[i - 1].Distance <= fromCodes[i].Distance, "nearest first");
            }

            shared += fromCodes.Select(match => Convert.ToHexString(match.PrimaryKey)).Intersect(fromPages.Select(match => Convert.ToHexString(match.PrimaryKey))).Count() / 10.0;
        }

        Assert.True(shared / queries >= 0.95, $"the int8 walk shares {shared / queries:F3} of the page walk's top 10");
    }

    [Fact]
    public void A_commit_retires_the_copy_so_a_later_snapshot_sees_the_change_and_an_earlier_one_does_not()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 37, Dimensions);
        VectorIndexTests.Fill(test, data, 1500);
        using var before = test.Database.BeginRead();
        var graph = Graph(test, before);
        SearchUntilCopied(graph, before, data);
        var probe = data.Next();

        test.Collection("notes").Insert(VectorIndexTests.Note(5000, probe));

        using var after = test.Database.BeginRead();
        Assert.Null(HnswWalkCopies.Find(after, graph.RootPageId));
        var newest = graph.Search(after, probe, 1, 64, null, out _);
        Assert.Equal(0f, newest[0].Distance);
        var newestKey = newest[0].PrimaryKey;
        var old = graph.Search(before, probe, 1, 64, null, out _);
        Assert.NotEqual(newestKey, old[0].PrimaryKey);
        Assert.True(old[0].Distance > 0f, "the earlier snapshot does not hold the probe");

        SearchUntilCopied(graph, after, data);
        AssertSame(newest, graph.Search(after, probe, 1, 64, null, out _));
        Assert.Null(HnswWalkCopies.Find(before, graph.RootPageId));
        Assert.NotEqual(newestKey, graph.Search(before, probe, 1, 64, null, out _)[0].PrimaryKey);
    }

    [Fact]
    public void A_write_transaction_walks_its_own_pages_and_sees_its_uncommitted_vector()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 41, Dimensions);
        VectorIndexTests.Fill(test, data, 1500);
        using (var read = test.Database.BeginRead())
        {
            SearchUntilCopied(Graph(test, read), read, data);
        }

        var probe = data.Next();
        using var write = test.Database.BeginWrite();
        test.Collection("notes").Insert(write, VectorIndexTests.Note(5000, probe));
        var graph = Graph(test, write);

        Assert.Null(HnswWalkCopies.Find(write, graph.RootPageId));
        Assert.Equal(0f, graph.Search(write, probe, 1, 64, null, out _)[0].Distance);
    }
}
