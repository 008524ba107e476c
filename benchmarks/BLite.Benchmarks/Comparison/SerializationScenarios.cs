using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Engines.MemoryPackCodec;
using BLite.Benchmarks.Engines.SystemTextJson;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Comparison;

/// <summary>
/// One order to bytes or back, per codec: the work every write and read of a document pays.
/// BLite's generated C-BSON mapper is the baseline; the peers are MemoryPack (source-generated
/// binary) and System.Text.Json (source-generated).
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public abstract class CodecBenchmark
{
    private const int Orders = 256;
    private IOrderCodec? _codec;

    protected IOrderCodec Codec => _codec ?? throw new InvalidOperationException("The codec is not set up.");

    protected CustomerOrder[] Samples { get; private set; } = [];

    protected byte[][] Encoded { get; private set; } = [];

    [GlobalSetup(Target = nameof(BLite))]
    public void SetUpBLite() => SetUp(new BLiteOrderCodec());

    [Benchmark(Baseline = true)]
    public int BLite() => Run(Codec);

    [GlobalSetup(Target = nameof(MemoryPack))]
    public void SetUpMemoryPack() => SetUp(new MemoryPackOrderCodec());

    [Benchmark]
    public int MemoryPack() => Run(Codec);

    [GlobalSetup(Target = nameof(SystemTextJson))]
    public void SetUpSystemTextJson() => SetUp(new SystemTextJsonOrderCodec());

    [Benchmark]
    public int SystemTextJson() => Run(Codec);

    protected abstract int Run(IOrderCodec codec);

    protected void SetUp(IOrderCodec codec)
    {
        _codec = codec;
        Samples = new OrderGenerator(ComparisonDataset.DocumentSeed).Generate(Orders).ToArray();
        Encoded = Array.ConvertAll(Samples, o => codec.Serialize(o).ToArray());
    }
}

[BenchmarkCategory("serialize-one")]
public class SerializeOneBenchmark : CodecBenchmark
{
    private int _next;

    protected override int Run(IOrderCodec codec) => codec.Serialize(Samples[_next++ & (Samples.Length - 1)]).Length;
}

[BenchmarkCategory("deserialize-one")]
public class DeserializeOneBenchmark : CodecBenchmark
{
    private int _next;

    protected override int Run(IOrderCodec codec) => codec.Deserialize(Encoded[_next++ & (Encoded.Length - 1)]).Lines.Count;
}
