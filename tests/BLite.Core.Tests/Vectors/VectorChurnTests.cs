using System.Globalization;
using BLite.Bson;
using BLite.Core.Tests.Collections;
using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

/// <summary>
/// The random workload: 100,000 inserts, updates and deletes interleaved with searches,
/// after which recall is no worse than that of an index built fresh over the same vectors.
/// Small vectors and graph parameters keep it to CI time; the graph code is the same at any size.
/// </summary>
public sealed class VectorChurnTests
{
    private const int Dimensions = 16;
    private const int Population = 1_500;
    private const int K = 10;

    private static VectorIndexDefinition Index(string name) => new(name, "embedding", Dimensions, VectorMetric.Euclidean, m: 6, efConstruction: 16);

    private static BsonDocument Note(int id, float[] vector) =>
        new() { ["_id"] = id, ["embedding"] = BsonVector.FromFloat32(vector) };

    private static HashSet<int> BruteForce(Dictionary<int, float[]> vectors, float[] query) =>
        vectors.OrderBy(pair => VectorDistance.Compute(VectorMetric.Euclidean, query, pair.Value)).Take(K).Select(pair => pair.Key).ToHashSet();

    private static double Recall(CollectionsTestDatabase test, string collection, Dictionary<int, float[]> vectors, float[] query)
    {
        using var read = test.Database.BeginRead();
        var results = VectorSearch.Execute(test.Database.GetRawCollection(collection), read, new VectorQuery("embedding", query, K, Ef: 32));
        Assert.Equal(K, results.Count);
        var exact = BruteForce(vectors, query);
        return results.Count(result => exact.Contains(BsonDocument.FromBytes(result.Document.Span, test.Database.Fields)["_id"].AsInt32)) / (double)K;
    }

    [Fact]
    public void A_100k_operation_churn_with_searches_between_keeps_the_recall_of_a_fresh_build()
    {
        // BLITE_VECTOR_CHURN_OPERATIONS changes the length of the run.
        var operations = int.TryParse(Environment.GetEnvironmentVariable("BLITE_VECTOR_CHURN_OPERATIONS"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured) ? configured : 100_000;
        using var test = new CollectionsTestDatabase();
        var data = new GaussianClusters(seed: 47, Dimensions);
        var random = new Random(53);
        var notes = test.Collection("notes");
        var raw = test.Database.GetRawCollection("notes");
        using (var write = test.Database.BeginWrite())
        {
            raw.EnsureVectorIndex(write, Index("byEmbedding"));
            write.Commit();
        }

        var vectors = new Dictionary<int, float[]>();
        var ids = new List<int>();
        var nextId = 0;
        var (inserts, updates, deletes, searches) = (0, 0, 0, 0);
        double churnRecall = 0;
        for (var done = 0; done < operations;)
        {
            using (var write = test.Database.BeginWrite())
            {
                for (var op = 0; op < 1_000 && done < operations; op++, done++)
                {
                    // Inserts until the population is reached, then a third of each, so the
                    // collection stays about its size while every vector keeps being replaced.
                    var kind = vectors.Count < Population ? 2 : random.Next(3);
                    if (kind == 2 || ids.Count == 0)
                    {
                        vectors[nextId] = data.Next();
                        notes.Insert(write, Note(nextId, vectors[nextId]));
                        ids.Add(nextId++);
                        inserts++;
                        continue;
                    }

                    var at = random.Next(ids.Count);
                    var id = ids[at];
                    if (kind == 0)
                    {
                        Assert.True(notes.Delete(write, id));
                        vectors.Remove(id);
                        ids[at] = ids[^1];
                        ids.RemoveAt(ids.Count - 1);
                        deletes++;
                    }
                    else
                    {
                        vectors[id] = data.Next();
                        notes.Update(write, Note(id, vectors[id]));
                        updates++;
                    }
                }

                write.Commit();
            }

            churnRecall += Recall(test, "notes", vectors, data.Next());
            searches++;
        }

        Assert.Equal(operations, inserts + updates + deletes);
        Assert.True(updates > operations / 4 && deletes > operations / 4, $"the churn replaced ({updates}) and removed ({deletes}) vectors");
        Assert.Equal(vectors.Count, notes.Count());

        // Verify: no edge to a removed node, degrees, every node reachable from the entry point,
        // and the graph holds exactly the documents' vectors.
        CollectionsTestDatabase.AssertValid(test.Database);

        // The same final vectors, indexed in one go in another collection.
        var fresh = test.Collection("fresh");
        using (var write = test.Database.BeginWrite())
        {
            test.Database.GetRawCollection("fresh").EnsureVectorIndex(write, Index("byEmbedding"));
            foreach (var (id, vector) in vectors)
            {
                fresh.Insert(write, Note(id, vector));
            }

            write.Commit();
        }

        double afterChurn = 0;
        double freshBuild = 0;
        const int queries = 100;
        for (var q = 0; q < queries; q++)
        {
            var query = data.Next();
            afterChurn += Recall(test, "notes", vectors, query);
            freshBuild += Recall(test, "fresh", vectors, query);
        }

        (afterChurn, freshBuild) = (afterChurn / queries, freshBuild / queries);
        Assert.True(churnRecall / searches >= 0.9, $"recall@10 during the churn {churnRecall / searches:F3}");
        Assert.True(afterChurn >= freshBuild - 0.02, $"recall@10 after {operations} operations {afterChurn:F3}, fresh build {freshBuild:F3}");
        Assert.True(afterChurn >= 0.9, $"recall@10 after the churn {afterChurn:F3}");
    }
}
