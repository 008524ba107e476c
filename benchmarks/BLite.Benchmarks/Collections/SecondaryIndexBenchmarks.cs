using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Workload;
using BLite.Core.Collections;
using BLite.Core.BTrees;

namespace BLite.Benchmarks.Collections;

/// <summary>
/// Equality lookups through secondary indexes over 1,000 workload orders: a unique
/// <c>customer.email</c> (1 match) and <c>status</c> (250 matches, about 25% each), returning
/// raw document bytes; plus a primary-key range scan for throughput.
/// </summary>
[MemoryDiagnoser]
public class SecondaryIndexBenchmarks
{
    private const int Orders = 1_000;
    private BenchmarkDatabase? _database;
    private RawCollection? _collection;
    private KeyRange[] _emails = [];
    private KeyRange? _shipped;
    private KeyRange? _idRange;
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _database = new BenchmarkDatabase();
        var database = _database.Database;
        var orders = new OrderGenerator(42).Generate(Orders);
        var collection = database.GetCollection("orders");
        using (var write = database.BeginWrite())
        {
            collection.EnsureIndex(write, new IndexDefinition("byEmail", "customer.email", unique: true));
            collection.EnsureIndex(write, new IndexDefinition("byStatus", "status"));
            foreach (var order in orders)
            {
                collection.Insert(write, OrderDocuments.From(order));
            }

            write.Commit();
        }

        _collection = collection.Documents;

        var random = new Random(11);
        _emails = Enumerable.Range(0, 1024)
            .Select(_ => KeyRange.Prefix(IndexKeys.Encode(database.Fields, orders[random.Next(Orders)].Customer.Email)))
            .ToArray();
        _shipped = KeyRange.Prefix(IndexKeys.Encode(database.Fields, "shipped"));
        var sortedIds = orders.Select(o => o.Id).Order().ToArray();
        _idRange = KeyRange.Between(IndexKeys.EncodeId(sortedIds[100]), true, IndexKeys.EncodeId(sortedIds[899]), true);
        database.Checkpoint();
    }

    [GlobalCleanup]
    public void Cleanup() => _database?.Dispose();

    [Benchmark]
    public int EqualityOneMatch()
    {
        using var read = _database!.Database.BeginRead();
        return CountBytes(_collection!.ScanIndex(read, "byEmail", _emails[_next++ & 1023]));
    }

    [Benchmark]
    public int Equality250Matches()
    {
        using var read = _database!.Database.BeginRead();
        return CountBytes(_collection!.ScanIndex(read, "byStatus", _shipped!));
    }

    /// <summary>800 documents in id order.</summary>
    [Benchmark]
    public int RangeScan800()
    {
        using var read = _database!.Database.BeginRead();
        return CountBytes(_collection!.Scan(read, _idRange));
    }

    private static int CountBytes(DocumentCursor cursor)
    {
        var total = 0;
        while (cursor.MoveNext())
        {
            total += cursor.Document.Length;
        }

        return total;
    }
}
