using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// What encryption at rest (docs/encryption.md) costs on reads: FindById on a 1,000-order file
/// database, plain against AES-256-GCM, with the default page cache (pages decrypted once, then
/// served from memory) and with no cache at all (every page read decrypted again, the worst case).
/// </summary>
[Config(typeof(StorageBenchmarkConfig))]
public class EncryptionReadBenchmarks
{
    private const int Documents = 1_000;

    private readonly List<ObjectId> _ids = [];
    private EncryptionBenchmarkFiles _files = null!;
    private BenchOrdersContext _cached = null!;
    private BenchOrdersContext _uncached = null!;
    private int _next;

    [Params(false, true)]
    public bool Encrypted { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _files = new EncryptionBenchmarkFiles();
        _cached = _files.Open("cached.blite", Encrypted, Durability.Normal);
        _uncached = _files.Open("uncached.blite", Encrypted, Durability.Normal, cacheBudget: 0);
        var generator = new OrderGenerator(7);
        foreach (var order in generator.Generate(Documents))
        {
            order.Id = default;
            _ids.Add(_cached.Orders.Insert(order));
            order.Id = _ids[^1];
            _uncached.Orders.Insert(order);
        }

        _cached.Database.Checkpoint();
        _uncached.Database.Checkpoint();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _cached.Dispose();
        _uncached.Dispose();
        _files.Dispose();
    }

    [Benchmark]
    public CustomerOrder? FindById() => _cached.Orders.FindById(_ids[_next++ % _ids.Count]);

    [Benchmark]
    public CustomerOrder? FindByIdWithoutCache() => _uncached.Orders.FindById(_ids[_next++ % _ids.Count]);
}

/// <summary>
/// What encryption at rest costs on writes: a single insert flushed to disk (<c>Full</c>) and a
/// batch of 1,000 inserts in one transaction, plain against AES-256-GCM, side by side.
/// </summary>
[Config(typeof(FlushBoundBenchmarkConfig))]
public class EncryptionWriteBenchmarks
{
    private const int BatchSize = 1_000;

    private EncryptionBenchmarkFiles _files = null!;
    private BenchOrdersContext _single = null!;
    private BenchOrdersContext _batch = null!;
    private OrderGenerator _generator = null!;
    private List<CustomerOrder> _orders = null!;

    [Params(false, true)]
    public bool Encrypted { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _files = new EncryptionBenchmarkFiles();
        _single = _files.Open("single.blite", Encrypted, Durability.Full);
        _batch = _files.Open("batch.blite", Encrypted, Durability.Full);
        _generator = new OrderGenerator(11);
        _orders = [.. _generator.Generate(BatchSize)];
        foreach (var order in _generator.Generate(BatchSize))
        {
            order.Id = default;
            _single.Orders.Insert(order);
            order.Id = default;
            _batch.Orders.Insert(order);
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _single.Dispose();
        _batch.Dispose();
        _files.Dispose();
    }

    [Benchmark]
    public ObjectId SingleInsert()
    {
        var order = _generator.Next();
        order.Id = default;
        return _single.Orders.Insert(order);
    }

    [Benchmark]
    public void BatchInsert()
    {
        foreach (var order in _orders)
        {
            order.Id = default;
        }

        _batch.Orders.InsertMany(_orders);
    }
}

/// <summary>A temporary folder of benchmark databases, encrypted with a fixed key when asked.</summary>
internal sealed class EncryptionBenchmarkFiles : IDisposable
{
    private static readonly byte[] Key = [.. Enumerable.Range(1, BLiteEncryption.KeySize).Select(i => (byte)i)];

    private readonly string _folder = Path.Combine(Path.GetTempPath(), "blite-bench-encryption-" + Guid.NewGuid().ToString("N"));

    public EncryptionBenchmarkFiles() => Directory.CreateDirectory(_folder);

    public BenchOrdersContext Open(string name, bool encrypted, Durability durability, long cacheBudget = 64L * 1024 * 1024) => new(new DocumentDbContextOptions
    {
        Path = Path.Combine(_folder, name),
        Durability = durability,
        CacheBudgetBytes = cacheBudget,
        Encryption = encrypted ? BLiteEncryption.WithKey(Key) : null,
    });

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
