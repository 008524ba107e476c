using BenchmarkDotNet.Attributes;
using BLite.Bson;
using BLite.Core.BTrees;

namespace BLite.Benchmarks.Indexing;

/// <summary>
/// Encoding one index key component per number type (docs/format.md 4.1): integers and doubles
/// take the allocation-free binary path, decimals with at most 18 places a 128-bit division, and
/// other Decimal128 values (large exponents) the big-integer path.
/// </summary>
[MemoryDiagnoser]
public class NumericKeyBenchmarks
{
    private const int Count = 1024;
    private readonly byte[] _buffer = new byte[64];
    private long[] _integers = [];
    private double[] _doubles = [];
    private decimal[] _money = [];
    private BsonDecimal128[] _wide = [];

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(7);
        _integers = Enumerable.Range(0, Count).Select(_ => random.NextInt64(-1_000_000, 1_000_000)).ToArray();
        _doubles = Enumerable.Range(0, Count).Select(_ => (random.NextDouble() - 0.5) * 1e6).ToArray();
        _money = Enumerable.Range(0, Count).Select(_ => random.Next(0, 10_000_000) / 100m).ToArray();
        _wide = Enumerable.Range(0, Count).Select(_ => BsonDecimal128.FromParts(false, (ulong)random.NextInt64(1, long.MaxValue), random.Next(-60, 60))).ToArray();
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public int Int64()
    {
        var total = 0;
        foreach (var value in _integers)
        {
            var writer = new KeyWriter(_buffer);
            writer.WriteInt64(value);
            total += writer.BytesWritten;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public int Double()
    {
        var total = 0;
        foreach (var value in _doubles)
        {
            var writer = new KeyWriter(_buffer);
            writer.WriteDouble(value);
            total += writer.BytesWritten;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public int DecimalMoney()
    {
        var total = 0;
        foreach (var value in _money)
        {
            var writer = new KeyWriter(_buffer);
            writer.WriteDecimal(value);
            total += writer.BytesWritten;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Count)]
    public int Decimal128WideExponent()
    {
        var total = 0;
        foreach (var value in _wide)
        {
            var writer = new KeyWriter(_buffer);
            writer.WriteDecimal128(value);
            total += writer.BytesWritten;
        }

        return total;
    }
}
