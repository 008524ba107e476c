using BLite.Core;
using BenchmarkDotNet.Attributes;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Benchmarks.Query;

/// <summary>
/// <c>OrderByDescending(placedAt).Take(10)</c> over 20,000 documents through the plan executor:
/// with an index on placedAt the scan walks the index backwards and stops once nothing later can
/// make the page; without it every document is read into a bounded top-N heap.
/// </summary>
[MemoryDiagnoser]
public class OrderedTakeBenchmarks
{
    private const int Documents = 20_000;

    private DocumentDatabase _database = null!;
    private RawCollection _indexed = null!;
    private RawCollection _plain = null!;
    private DocumentQuery _query = null!;

    [GlobalSetup]
    public void Setup()
    {
        _database = DocumentDatabase.OpenInMemory(new StorageOptions { Durability = Durability.InMemory });
        var indexed = _database.GetCollection("indexed");
        var plain = _database.GetCollection("plain");
        var start = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var random = new Random(7);
        var documents = Enumerable.Range(0, Documents).Select(i => new BsonDocument
        {
            { "_id", i },
            { "status", i % 4 == 0 ? "shipped" : "pending" },
            { "placedAt", start.AddMinutes(random.Next(1_000_000)) },
            { "total", (decimal)random.Next(10_000) / 100 },
        }).ToList();
        using (var write = _database.BeginWrite())
        {
            indexed.EnsureIndex(write, new IndexDefinition("by_placedAt", "placedAt"));
            foreach (var document in documents)
            {
                indexed.Insert(write, document);
                plain.Insert(write, document);
            }

            write.Commit();
        }

        _indexed = indexed.Documents;
        _plain = plain.Documents;
        _query = new DocumentQuery(null, [new SortKey(FieldPath.Parse("placedAt"), descending: true)], take: FilterOperand.FromConstant(10));
    }

    [GlobalCleanup]
    public void Cleanup() => _database.Dispose();

    [Benchmark(Baseline = true, Description = "full scan + top-N heap")]
    public int FullScan() => Run(_plain);

    [Benchmark(Description = "index order + early stop")]
    public int IndexOrder() => Run(_indexed);

    private int Run(RawCollection collection)
    {
        using var read = _database.BeginRead();
        var count = 0;
        foreach (var document in PlanExecutor.Execute(collection, read, _query))
        {
            count += document.Length > 0 ? 1 : 0;
        }

        return count;
    }
}
