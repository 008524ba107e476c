using System.Diagnostics;
using System.Globalization;
using System.Numerics.Tensors;
using BLite.Bson;
using BLite.Core;
using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Tests.Vectors;
using BLite.Core.Vectors;

namespace BLite.Benchmarks.Vectors;

/// <summary>
/// <c>vectors [--count N] [--queries Q] [--churn]</c>: N seeded Gaussian-cluster vectors of 128
/// dimensions (Euclidean) in a file database (Normal durability, 8 KB pages); reports build time
/// and index size, then recall@10 and queries per second of the full search path (HNSW, document
/// fetch included) at ef 16/32/64/128, side by side with an exact SIMD brute force over the same
/// vectors held in memory. With --churn, half of the vectors are then replaced and recall is
/// measured again. Recall is against the brute force's exact answers.
/// </summary>
internal static class VectorBenchmark
{
    private const int Dimensions = 128;
    private const int K = 10;

    public static int Run(IReadOnlyList<string> args)
    {
        var count = Option(args, "--count", 20_000);
        var queries = Option(args, "--queries", 200);
        var churn = args.Contains("--churn");
        var directory = Path.Combine(Path.GetTempPath(), "blite-vector-bench-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            Measure(Path.Combine(directory, "vectors.blite"), count, queries, churn);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }

        return 0;
    }

    private static void Measure(string path, int count, int queries, bool churn)
    {
        Console.WriteLine($"vectors: {count} x {Dimensions}d, {queries} queries, k {K}, load average {File.ReadAllText("/proc/loadavg").Trim()}");
        var data = new GaussianClusters(seed: 2026, Dimensions, clusters: 64, spread: 0.35f);
        var vectors = new float[count][];
        for (var i = 0; i < count; i++)
        {
            vectors[i] = data.Next();
        }

        var queryVectors = new float[queries][];
        for (var q = 0; q < queries; q++)
        {
            queryVectors[q] = data.Next();
        }

        var index = new VectorIndexDefinition("byEmbedding", "embedding", Dimensions, VectorMetric.Euclidean);
        using var database = DocumentDatabase.Open(path, new StorageOptions { Durability = Durability.Normal },
            [new CollectionDefinition("items", vectorIndexes: [index])]);
        var items = database.GetCollection("items");
        var build = Stopwatch.StartNew();
        for (var start = 0; start < count; start += 1000)
        {
            using var write = database.BeginWrite();
            for (var i = start; i < Math.Min(count, start + 1000); i++)
            {
                items.Insert(write, new BsonDocument { ["_id"] = i, ["embedding"] = BsonVector.FromFloat32(vectors[i]) });
            }

            write.Commit();
        }

        build.Stop();
        Console.WriteLine($"build: {build.Elapsed.TotalSeconds:N1} s ({count / build.Elapsed.TotalSeconds:N0} inserts/s), index {IndexBytes(database, index) / (1024.0 * 1024):N1} MiB, vectors alone {count * Dimensions * 4 / (1024.0 * 1024):N1} MiB");
        var raw = database.GetRawCollection("items");
        Report(database, raw, vectors, queryVectors);
        if (!churn)
        {
            return;
        }

        var replace = Stopwatch.StartNew();
        for (var start = 0; start < count; start += 2 * 500)
        {
            using var write = database.BeginWrite();
            for (var i = start; i < Math.Min(count, start + 1000); i += 2)
            {
                vectors[i] = data.Next();
                items.Update(write, new BsonDocument { ["_id"] = i, ["embedding"] = BsonVector.FromFloat32(vectors[i]) });
            }

            write.Commit();
        }

        replace.Stop();
        Console.WriteLine($"churn: {count / 2} vectors replaced in {replace.Elapsed.TotalSeconds:N1} s, index {IndexBytes(database, index) / (1024.0 * 1024):N1} MiB");
        Report(database, raw, vectors, queryVectors);
    }

    private static void Report(DocumentDatabase database, RawCollection raw, float[][] vectors, float[][] queries)
    {
        var truth = new int[queries.Length][];
        var brute = Stopwatch.StartNew();
        for (var q = 0; q < queries.Length; q++)
        {
            truth[q] = BruteForce(vectors, queries[q]);
        }

        brute.Stop();
        var bruteQps = queries.Length / brute.Elapsed.TotalSeconds;
        Console.WriteLine("| Search | ef | recall@10 | queries/s | vs brute force |");
        Console.WriteLine("|---|---|---|---|---|");
        Console.WriteLine($"| brute force (SIMD, in memory) | - | 1.000 | {bruteQps:N0} | 1.0x |");
        foreach (var ef in new[] { 16, 32, 64, 128 })
        {
            using var read = database.BeginRead();
            double recall = 0;
            var timer = Stopwatch.StartNew();
            for (var q = 0; q < queries.Length; q++)
            {
                var results = VectorSearch.Execute(raw, read, new VectorQuery("embedding", queries[q], K, Ef: ef));
                var found = new HashSet<int>();
                foreach (var result in results)
                {
                    found.Add(BsonDocument.FromBytes(result.Document.Span, database.Fields)["_id"].AsInt32);
                }

                recall += truth[q].Count(found.Contains) / (double)K;
            }

            timer.Stop();
            var qps = queries.Length / timer.Elapsed.TotalSeconds;
            Console.WriteLine($"| BLite HNSW | {ef} | {recall / queries.Length:F3} | {qps:N0} | {qps / bruteQps:N1}x |");
        }
    }

    private static int[] BruteForce(float[][] vectors, float[] query)
    {
        var best = new PriorityQueue<int, float>(Comparer<float>.Create(static (a, b) => b.CompareTo(a)));
        for (var i = 0; i < vectors.Length; i++)
        {
            var distance = TensorPrimitives.Distance(query, vectors[i]);
            if (best.Count < K)
            {
                best.Enqueue(i, distance);
            }
            else if (best.TryPeek(out _, out var worst) && distance < worst)
            {
                best.DequeueEnqueue(i, distance);
            }
        }

        return best.UnorderedItems.Select(item => item.Element).ToArray();
    }

    private static long IndexBytes(DocumentDatabase database, VectorIndexDefinition index)
    {
        using var read = database.BeginRead();
        var info = database.GetRawCollection("items").FindVectorIndex(read, index.Name)!;
        return (long)BTreeVerifier.Verify(read, info.RootPageId).OwnedPages.Count * read.PagePayloadSize;
    }

    private static int Option(IReadOnlyList<string> args, string name, int fallback)
    {
        for (var i = 0; i < args.Count - 1; i++)
        {
            if (args[i] == name)
            {
                return int.Parse(args[i + 1], CultureInfo.InvariantCulture);
            }
        }

        return fallback;
    }
}
