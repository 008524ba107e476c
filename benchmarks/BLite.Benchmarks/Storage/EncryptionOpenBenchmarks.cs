using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// How fast a wrong key is refused (issue #18: under 100 ms plus the key derivation), beside an
/// open with the right key of the same 1,000-order encrypted database. Keys are given directly,
/// so no derivation is included; a password adds its PBKDF2 time to both.
/// </summary>
[Config(typeof(StorageBenchmarkConfig))]
public class EncryptionOpenBenchmarks
{
    private static readonly byte[] WrongKey = [.. Enumerable.Range(200, BLiteEncryption.KeySize).Select(i => (byte)i)];

    private EncryptionBenchmarkFiles _files = null!;
    private string _path = null!;

    [GlobalSetup]
    public void Setup()
    {
        _files = new EncryptionBenchmarkFiles();
        using var context = _files.Open("open.blite", encrypted: true, Durability.Normal);
        _path = context.Database.Path!;
        foreach (var order in new OrderGenerator(5).Generate(1_000))
        {
            order.Id = default;
            context.Orders.Insert(order);
        }
    }

    [GlobalCleanup]
    public void Cleanup() => _files.Dispose();

    [Benchmark(Baseline = true)]
    public int OpenWithRightKey()
    {
        using var context = _files.Open("open.blite", encrypted: true, Durability.Normal);
        return context.Database.GetCollectionNames().Count;
    }

    [Benchmark]
    public string WrongKeyRefused()
    {
        try
        {
            using var context = new BenchOrdersContext(new DocumentDbContextOptions { Path = _path, Encryption = BLiteEncryption.WithKey(WrongKey) });
            throw new InvalidOperationException("A wrong key opened the database.");
        }
        catch (BLiteEncryptionException exception)
        {
            return exception.Message;
        }
    }
}
