using System.Diagnostics;
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
/// <c>vectors [--count N] [--queries Q] [--churn] [--cache-mb M]</c>: N seeded Gaussian-cluster
/// vectors of 128 dimensions (Euclidean) in a file database (Normal durability, 8 KB pages, a page
/// cache of M MiB, default 1024 so the index stays in memory like the brute force's vectors); reports build time
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
        var count = ModeArguments.Int(args, "--count", 20_000);
        var queries = ModeArguments.Int(args, "--queries", 200);
        var churn = args.Contains("--churn");
        var cacheMegabytes = ModeArguments.Int(args, "--cache-mb", 1024);
        var keep = ModeArguments.String(args, "--keep");
        if (keep is not null)
        {
            // A database kept from an earlier run with the same --count is searched again without
            // rebuilding it (a 100k build takes minutes, a 1M build hours).
            Measure(keep, count, queries, churn, cacheMegabytes);
            return 0;
        }

        var directory = Path.Combine(Path.GetTempPath(), "blite-vector-bench-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            Measure(Path.Combine(directory, "vectors.blite"), count, queries, churn, cacheMegabytes);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }

        return 0;
    }

    private static void Measure(string path, int count, int queries, bool churn, int cacheMegabytes)
    {
        Console.WriteLine($"vectors: {count} x {Dimensions}d, {queries} queries, k {K}, page cache {cacheMegabytes} MiB, load average {File.ReadAllText("/proc/loadavg").Trim()}");
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
        using var database = DocumentDatabase.Open(path, new StorageOptions { Durability = Durability.Normal, CacheBudgetBytes = cacheMegabytes * 1024L * 1024 },
            [new CollectionDefinition("items", vectorIndexes: [index])]);
        var items = database.GetCollection("items");
        var build = Stopwatch.StartNew();
        long stored;
        using (var read = database.BeginRead())
        {
            stored = items.Count(read);
        }

        if (stored != 0 && stored != count)
        {
            throw new InvalidOperationException($"{path} holds {stored} vectors, not {count}.");
        }

        for (var start = stored == count ? count : 0; start < count; start += 1000)
        {
            using var write = database.BeginWrite();
            for (var i = start; i < Math.Min(count, start + 1000); i++)
            {
                items.Insert(write, new BsonDocument { ["_id"] = i, ["embedding"] = BsonVector.FromFloat32(vectors[i]) });
            }

            write.Commit();
        }

        build.Stop();
        var built = stored == count ? "kept from an earlier run" : $"{build.Elapsed.TotalSeconds:N1} s ({count / build.Elapsed.TotalSeconds:N0} inserts/s)";
        Console.WriteLine($"build: {built}, index {IndexBytes(database, index) / (1024.0 * 1024):N1} MiB, vectors alone {count * Dimensions * 4 / (1024.0 * 1024):N1} MiB");
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

    /// <summary>
    /// The machine these figures come from is shared and loaded, so each search is timed in CPU
    /// time of this process (not wall time, which mostly measures other processes), best of three
    /// rounds, the brute force and HNSW alternating within each round.
    /// </summary>
    private static void Report(DocumentDatabase database, RawCollection raw, float[][] vectors, float[][] queries)
    {
        var truth = new int[queries.Length][];
        for (var q = 0; q < queries.Length; q++)
        {
            truth[q] = BruteForce(vectors, queries[q]);
        }

        int[] efs = [16, 32, 64, 128];
        (string Name, bool PageWalk, bool WalkCodes)[] ways =
        [
            ("page walk", true, false),
            ("walk copy, float32", false, false),
            ("walk copy, int8 + re-rank", false, true),
        ];
        var bruteSeconds = double.MaxValue;
        var seconds = new double[ways.Length, efs.Length];
        var recall = new double[ways.Length, efs.Length];
        var visited = new long[ways.Length, efs.Length];
        for (var w = 0; w < ways.Length; w++)
        {
            for (var e = 0; e < efs.Length; e++)
            {
                seconds[w, e] = double.MaxValue;
            }
        }

        var (copyBuild, warmSearches, copyBytes) = WarmWalkCopy(raw, database, queries);
        for (var round = 0; round < 3; round++)
        {
            bruteSeconds = Math.Min(bruteSeconds, CpuSeconds(() =>
            {
                foreach (var query in queries)
                {
                    BruteForce(vectors, query);
                }
            }));
            for (var e = 0; e < efs.Length; e++)
            {
                using var read = database.BeginRead();
                for (var w = 0; w < ways.Length; w++)
                {
                    var (_, pageWalk, walkCodes) = ways[w];
                    var pages = pageWalk ? new PageWalkOnly(read) : (IPageReader)read;
                    seconds[w, e] = Math.Min(seconds[w, e], CpuSeconds(() => recall[w, e] = Recall(database, raw, pages, queries, truth, efs[e], walkCodes)));
                    visited[w, e] = VisitedPerQuery(raw, pages, queries, efs[e], walkCodes);
                }
            }
        }

        var bruteQps = queries.Length / bruteSeconds;
        GC.Collect();
        Console.WriteLine($"walk copy: built in {copyBuild.TotalSeconds:N2} s wall after {warmSearches} warm-up searches, holds {copyBytes / (1024.0 * 1024):N1} MiB (vectors, codes, links); managed heap {GC.GetTotalMemory(forceFullCollection: true) / (1024.0 * 1024):N0} MiB, working set {Environment.WorkingSet / (1024.0 * 1024):N0} MiB");
        Console.WriteLine("| Search | ef | recall@10 | queries per CPU second | vs brute force | layer-0 nodes visited per query |");
        Console.WriteLine("|---|---|---|---|---|---|");
        Console.WriteLine($"| brute force (SIMD, in memory) | - | 1.000 | {bruteQps:N0} | 1.0x | {vectors.Length:N0} |");
        for (var w = 0; w < ways.Length; w++)
        {
            for (var e = 0; e < efs.Length; e++)
            {
                var qps = queries.Length / seconds[w, e];
                Console.WriteLine($"| BLite HNSW, {ways[w].Name} | {efs[e]} | {recall[w, e]:F3} | {qps:N0} | {qps / bruteQps:N1}x | {visited[w, e]:N0} |");
            }
        }
    }

    /// <summary>Searches one snapshot until it has built its walk copy (HnswWalkCopies), timing the search that built it.</summary>
    private static (TimeSpan BuildingSearch, int Searches, long CopyBytes) WarmWalkCopy(RawCollection raw, DocumentDatabase database, float[][] queries)
    {
        using var read = database.BeginRead();
        var graph = raw.FindVectorIndex(read, "byEmbedding")!.Open();
        for (var searches = 0; ; searches++)
        {
            var search = Stopwatch.StartNew();
            graph.Search(read, queries[searches % queries.Length], K, 64, null, out _);
            if (HnswWalkCopies.Find(read, graph.RootPageId) is { } copy)
            {
                return (search.Elapsed, searches + 1, copy.Bytes);
            }
        }
    }

    /// <summary>Mean recall@K of VectorSearch.Execute over <paramref name="queries"/>, decoding each result document.</summary>
    private static double Recall(DocumentDatabase database, RawCollection raw, IPageReader read, float[][] queries, int[][] truth, int ef, bool walkCodes)
    {
        double found = 0;
        for (var q = 0; q < queries.Length; q++)
        {
            var ids = new HashSet<int>();
            foreach (var result in VectorSearch.Execute(raw, read, new VectorQuery("embedding", queries[q], K, Ef: ef, WalkCodes: walkCodes)))
            {
                ids.Add(BsonDocument.FromBytes(result.Document.Span, database.Fields)["_id"].AsInt32);
            }

            found += truth[q].Count(ids.Contains) / (double)K;
        }

        return found / queries.Length;
    }

    /// <summary>The same snapshot, hidden behind a plain reader so searches walk the pages (the copy serves only a ReadTransaction).</summary>
    private sealed class PageWalkOnly(IPageReader inner) : IPageReader
    {
        public int PagePayloadSize => inner.PagePayloadSize;

        public ReadOnlyMemory<byte> ReadPage(uint pageId) => inner.ReadPage(pageId);
    }

    private static long VisitedPerQuery(RawCollection raw, IPageReader read, float[][] queries, int ef, bool walkCodes)
    {
        var graph = raw.FindVectorIndex(read, "byEmbedding")!.Open();
        long visited = 0;
        foreach (var query in queries)
        {
            graph.Search(read, query, K, ef, null, out var nodes, walkCodes);
            visited += nodes;
        }

        return visited / queries.Length;
    }

    private static double CpuSeconds(Action action)
    {
        var process = Process.GetCurrentProcess();
        process.Refresh();
        var before = process.TotalProcessorTime;
        action();
        process.Refresh();
        return Math.Max((process.TotalProcessorTime - before).TotalSeconds, 1e-6);
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
}
