using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Tests.Collections;
using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

public sealed class VectorIndexTests
{
    private const int Dimensions = 128;

    internal static VectorIndexDefinition Index(VectorMetric metric = VectorMetric.Euclidean) =>
        new("byEmbedding", "embedding", Dimensions, metric, m: 12, efConstruction: 64);

    internal static BsonDocument Note(int id, float[] vector, string folder = "inbox") =>
        new() { ["_id"] = id, ["folder"] = folder, ["bucket"] = id % 100, ["embedding"] = BsonVector.FromFloat32(vector) };

    private static List<int> BruteForce(Dictionary<int, float[]> vectors, float[] query, int k, VectorMetric metric, Func<int, bool>? filter = null)
    {
        var prepared = Prepare(query, metric);
        return vectors.Where(pair => filter?.Invoke(pair.Key) ?? true)
            .Select(pair => (pair.Key, Distance: VectorDistance.Compute(metric, prepared, Prepare(pair.Value, metric))))
            .OrderBy(pair => pair.Distance).Take(k).Select(pair => pair.Key).ToList();
    }

    private static float[] Prepare(float[] vector, VectorMetric metric)
    {
        var prepared = new float[vector.Length];
        VectorDistance.Prepare(new VectorIndexDefinition("x", "v", vector.Length, metric), vector, prepared, "test");
        return prepared;
    }

    private static List<int> Search(CollectionsTestDatabase test, string name, float[] query, int k, QueryFilter? filter = null, int? ef = null)
    {
        using var read = test.Database.BeginRead();
        var results = VectorSearch.Execute(test.Database.GetRawCollection(name), read, new VectorQuery("embedding", query, k, filter, ef));
        for (var i = 1; i < results.Count; i++)
        {
            Assert.True(results[i - 1].Distance <= results[i].Distance, "results are ordered by distance");
        }

        return results.Select(result => IdOf(test, result.Document)).ToList();
    }

    private static double Recall(List<int> found, List<int> exact) => exact.Count == 0 ? 1 : found.Intersect(exact).Count() / (double)exact.Count;

    internal static Dictionary<int, float[]> Fill(CollectionsTestDatabase test, GaussianClusters data, int count, VectorMetric metric = VectorMetric.Euclidean, Func<int, string>? folder = null)
    {
        var notes = test.Collection("notes");
        using (var write = test.Database.BeginWrite())
        {
            test.Database.GetRawCollection("notes").EnsureVectorIndex(write, Index(metric));
            write.Commit();
        }

        var vectors = new Dictionary<int, float[]>();
        using (var write = test.Database.BeginWrite())
        {
            for (var i = 0; i < count; i++)
            {
                vectors[i] = data.Next();
                notes.Insert(write, Note(i, vectors[i], folder?.Invoke(i) ?? "inbox"));
            }

            write.Commit();
        }

        return vectors;
    }

    [Theory]
    [InlineData(VectorMetric.Euclidean)]
    [InlineData(VectorMetric.Cosine)]
    [InlineData(VectorMetric.DotProduct)]
    public void Recall_at_10_matches_brute_force_on_gaussian_clusters(VectorMetric metric)
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 19, Dimensions);
        var vectors = Fill(test, data, 1500, metric);
        double recall = 0;
        const int queries = 30;
        for (var q = 0; q < queries; q++)
        {
            var query = data.Next();
            recall += Recall(Search(test, "notes", query, 10), BruteForce(vectors, query, 10, metric));
        }

        Assert.True(recall / queries >= 0.9, $"recall@10 {recall / queries:F3} with {metric}");
    }

    [Fact]
    public void A_wrong_dimension_or_a_NaN_is_refused_and_nothing_is_written()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 3, Dimensions);
        Fill(test, data, 20);
        var notes = test.Collection("notes");

        var shortVector = Assert.Throws<BLiteVectorException>(() => notes.Insert(Note(100, new float[5])));
        Assert.Contains("5 dimensions", shortVector.Message, StringComparison.Ordinal);
        var withNaN = data.Next();
        withNaN[7] = float.NaN;
        var nan = Assert.Throws<BLiteVectorException>(() => notes.Insert(Note(101, withNaN)));
        Assert.Contains("component 7", nan.Message, StringComparison.Ordinal);
        Assert.Throws<BLiteVectorException>(() => notes.Update(Note(3, withNaN)));
        var notAVector = new BsonDocument { ["_id"] = 102, ["embedding"] = "text" };
        Assert.Throws<BLiteVectorException>(() => notes.Insert(notAVector));

        Assert.Equal(20, notes.Count());
        Assert.Null(notes.FindById(100));
        using var read = test.Database.BeginRead();
        var graph = test.Database.GetRawCollection("notes").FindVectorIndex(read, "byEmbedding")!.Open();
        Assert.Equal(20, graph.Count(read));
    }

    [Fact]
    public void Updates_and_deletes_leave_no_trace_and_recall_stays_as_on_a_fresh_build()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 5, Dimensions);
        var vectors = Fill(test, data, 800);
        var notes = test.Collection("notes");
        var random = new Random(11);
        var nextId = 800;

        // BLITE_VECTOR_CHURN_ROUNDS runs longer (each round is 200 operations in one transaction).
        var rounds = int.TryParse(Environment.GetEnvironmentVariable("BLITE_VECTOR_CHURN_ROUNDS"), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var configured) ? configured : 6;
        var operations = 0;
        for (var round = 0; round < rounds; round++)
        {
            using var write = test.Database.BeginWrite();
            for (var op = 0; op < 200; op++)
            {
                var ids = vectors.Keys.ToList();
                var id = ids[random.Next(ids.Count)];
                operations++;
                switch (random.Next(3))
                {
                    case 0:
                        notes.Delete(write, id);
                        vectors.Remove(id);
                        break;
                    case 1:
                        vectors[id] = data.Next();
                        notes.Update(write, Note(id, vectors[id]));
                        break;
                    default:
                        vectors[nextId] = data.Next();
                        notes.Insert(write, Note(nextId, vectors[nextId]));
                        nextId++;
                        break;
                }
            }

            write.Commit();
        }

        // Verify (run when the database is disposed) checks no edge points at a removed node,
        // degrees, reachability and that the graph holds exactly the documents' vectors.
        CollectionsTestDatabase.AssertValid(test.Database);
        Assert.Equal(rounds * 200, operations);
        Assert.Equal(vectors.Count, test.Collection("notes").Count());
        double recall = 0;
        const int queries = 30;
        for (var q = 0; q < queries; q++)
        {
            var query = data.Next();
            recall += Recall(Search(test, "notes", query, 10), BruteForce(vectors, query, 10, VectorMetric.Euclidean));
        }

        Assert.True(recall / queries >= 0.9, $"recall@10 after churn {recall / queries:F3}");
    }

    [Fact]
    public void A_filter_applied_while_walking_the_graph_agrees_with_exact_search_and_never_under_fills()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 7, Dimensions);
        var vectors = Fill(test, data, 1000, folder: i => i % 7 == 0 ? "work" : i == 500 || i == 501 ? "rare" : "home");
        var raw = test.Database.GetRawCollection("notes");
        var work = QueryFilter.Eq(FieldPath.Parse("folder"), "work");
        double recall = 0;
        for (var q = 0; q < 20; q++)
        {
            var query = data.Next();
            var found = Search(test, "notes", query, 10, work);
            Assert.Equal(10, found.Count);
            Assert.All(found, id => Assert.Equal(0, id % 7));
            recall += Recall(found, BruteForce(vectors, query, 10, VectorMetric.Euclidean, id => id % 7 == 0 && id != 500 && id != 501));
        }

        Assert.True(recall / 20 >= 0.9, $"filtered recall@10 {recall / 20:F3}");

        // Only two documents match: both come back, found by the exact fallback.
        var rare = Search(test, "notes", data.Next(), 10, QueryFilter.Eq(FieldPath.Parse("folder"), "rare"));
        Assert.Equal([500, 501], rare.Order());

        using var read = test.Database.BeginRead();
        var plan = VectorSearch.Plan(raw, read, new VectorQuery("embedding", data.Next(), 10, work));
        Assert.Equal(VectorStrategy.Hnsw, plan.Strategy);
        Assert.Contains("VECTOR HNSW byEmbedding (embedding) Euclidean 128d [ef 64]", plan.Explain(), StringComparison.Ordinal);
        Assert.Contains("applied during traversal", plan.Explain(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_selective_indexed_filter_runs_an_exact_scan_of_its_candidates()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 9, Dimensions);
        var vectors = Fill(test, data, 600);
        var notes = test.Collection("notes");
        notes.EnsureIndex("byBucket", "bucket");
        var filter = QueryFilter.Eq(FieldPath.Parse("bucket"), 42);
        var query = data.Next();

        var found = Search(test, "notes", query, 5, filter);

        Assert.Equal(BruteForce(vectors, query, 5, VectorMetric.Euclidean, id => id % 100 == 42), found);
        using var read = test.Database.BeginRead();
        var plan = VectorSearch.Plan(test.Database.GetRawCollection("notes"), read, new VectorQuery("embedding", query, 5, filter));
        Assert.Equal(VectorStrategy.ExactOverIndexCandidates, plan.Strategy);
        Assert.Contains("VECTOR EXACT byEmbedding", plan.Explain(), StringComparison.Ordinal);
        Assert.Contains("IXSCAN byBucket", plan.Explain(), StringComparison.Ordinal);
    }

    [Fact]
    public void Building_on_an_existing_collection_reports_progress_and_a_reader_keeps_its_snapshot()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 13, Dimensions);
        var notes = test.Collection("notes");
        for (var i = 0; i < 200; i++)
        {
            notes.Insert(Note(i, data.Next()));
        }

        notes.Insert(new BsonDocument { ["_id"] = 999, ["folder"] = "no vector" });
        var reports = new List<long>();
        using (var write = test.Database.BeginWrite())
        {
            Assert.True(test.Database.GetRawCollection("notes").EnsureVectorIndex(write, Index(), new SynchronousProgress(reports)));
            write.Commit();
        }

        Assert.Equal(Enumerable.Range(1, 200).Select(i => (long)i), reports);
        var query = data.Next();
        using var before = test.Database.BeginRead();
        var raw = test.Database.GetRawCollection("notes");
        var nearest = VectorSearch.Execute(raw, before, new VectorQuery("embedding", query, 1));
        var nearestId = IdOf(test, nearest[0].Document);
        notes.Delete(nearestId);

        Assert.Equal(nearestId, IdOf(test, VectorSearch.Execute(raw, before, new VectorQuery("embedding", query, 1))[0].Document));
        using var after = test.Database.BeginRead();
        Assert.NotEqual(nearestId, IdOf(test, VectorSearch.Execute(raw, after, new VectorQuery("embedding", query, 1))[0].Document));
        test.Reopen();
        using var reopened = test.Database.BeginRead();
        Assert.Equal(199, test.Database.GetRawCollection("notes").FindVectorIndex(reopened, "byEmbedding")!.Open().Count(reopened));
    }

    [Fact]
    public void Deleting_every_node_including_each_entry_point_leaves_an_empty_graph_that_grows_again()
    {
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 17, Dimensions);
        var vectors = Fill(test, data, 60);
        var notes = test.Collection("notes");
        var raw = test.Database.GetRawCollection("notes");
        var graph = FindGraph(test);
        foreach (var id in vectors.Keys.OrderByDescending(id => id))
        {
            Assert.True(notes.Delete(id));
            CollectionsTestDatabase.AssertValid(test.Database);
        }

        using (var read = test.Database.BeginRead())
        {
            Assert.Equal(0, graph.Count(read));
            Assert.Empty(VectorSearch.Execute(raw, read, new VectorQuery("embedding", data.Next(), 5)));
        }

        var again = data.Next();
        notes.Insert(Note(500, again));
        Assert.Equal([500], Search(test, "notes", again, 5));
    }

    private static HnswGraph FindGraph(CollectionsTestDatabase test)
    {
        using var read = test.Database.BeginRead();
        return test.Database.GetRawCollection("notes").FindVectorIndex(read, "byEmbedding")!.Open();
    }

    private sealed class SynchronousProgress(List<long> reports) : IProgress<long>
    {
        public void Report(long value) => reports.Add(value);
    }

    private static int IdOf(CollectionsTestDatabase test, ReadOnlyMemory<byte> document) =>
        BsonDocument.FromBytes(document.Span, test.Database.Fields)["_id"].AsInt32;
}
