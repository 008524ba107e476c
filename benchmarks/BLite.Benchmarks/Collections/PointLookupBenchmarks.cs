using BenchmarkDotNet.Attributes;
using BLite.Bson;
using BLite.Core.Collections;

namespace BLite.Benchmarks.Collections;

/// <summary>
/// FindById through the primary index at growing collection sizes, random keys over the whole
/// collection. Documents are small (~100 bytes) so a million of them stay a modest file; each
/// lookup opens and closes a read snapshot, as an application call would.
/// </summary>
[MemoryDiagnoser]
public class PointLookupBenchmarks
{
    private BenchmarkDatabase? _database;
    private RawCollection? _collection;
    private byte[][] _keys = [];
    private int _next;

    [Params(1_000, 100_000, 1_000_000)]
    public int Documents { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _database = new BenchmarkDatabase();
        var database = _database.Database;
        _collection = database.GetRawCollection("points");
        var ids = new ObjectId[Documents];
        const int batch = 20_000;
        for (var start = 0; start < Documents; start += batch)
        {
            using var write = database.BeginWrite();
            for (var i = start; i < Math.Min(Documents, start + batch); i++)
            {
                ids[i] = ObjectId.NewObjectId();
                var document = new BsonDocument
                {
                    ["_id"] = ids[i],
                    ["name"] = "point-" + i,
                    ["x"] = i * 0.5,
                    ["y"] = i,
                    ["label"] = "abcdefghijklmnopqrstuvwxyz",
                };
                _collection.Insert(write, document.ToBytes(database.Fields));
            }

            write.Commit();
        }

        database.Checkpoint();
        var random = new Random(7);
        _keys = new byte[4096][];
        for (var i = 0; i < _keys.Length; i++)
        {
            _keys[i] = IndexKeys.EncodeId(ids[random.Next(Documents)]);
        }
    }

    [GlobalCleanup]
    public void Cleanup() => _database?.Dispose();

    [Benchmark]
    public int FindById()
    {
        var key = _keys[_next++ & (_keys.Length - 1)];
        using var read = _database!.Database.BeginRead();
        return _collection!.TryFindById(read, key, out var document) ? document.Length : 0;
    }
}
