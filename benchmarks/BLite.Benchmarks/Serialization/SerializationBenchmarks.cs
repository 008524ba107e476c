using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Workload;
using BLite.Bson;

namespace BLite.Benchmarks.Serialization;

/// <summary>
/// The compile-time C-BSON mapper against System.Text.Json's source generator on the shared
/// CustomerOrder workload: one document and 10,000 documents, each way. Both sides write into a
/// buffer reused across documents (a storage engine serializes into its own scratch space), and
/// both read from bytes prepared in setup.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class SerializationBenchmarks
{
    private const int ManyCount = 10_000;
    private const int ScratchSize = 64 * 1024;

    private CustomerOrder _order = null!;
    private List<CustomerOrder> _orders = null!;
    private CustomerOrderDocumentMapper _mapper = null!;
    private byte[] _scratch = null!;
    private ArrayBufferWriter<byte> _jsonBuffer = null!;
    private Utf8JsonWriter _jsonWriter = null!;
    private byte[] _bsonOne = null!;
    private byte[][] _bsonMany = null!;
    private byte[] _jsonOne = null!;
    private byte[][] _jsonMany = null!;

    [GlobalSetup]
    public void Setup()
    {
        _orders = new OrderGenerator(seed: 42).Generate(ManyCount);
        _order = _orders[0];
        _mapper = new CustomerOrderDocumentMapper(new BsonFieldDictionary());
        _scratch = ArrayPool<byte>.Shared.Rent(ScratchSize);
        _jsonBuffer = new ArrayBufferWriter<byte>(ScratchSize);
        _jsonWriter = new Utf8JsonWriter(_jsonBuffer, new JsonWriterOptions { SkipValidation = true });

        _bsonMany = new byte[ManyCount][];
        _jsonMany = new byte[ManyCount][];
        for (var i = 0; i < ManyCount; i++)
        {
            var writer = new BsonSpanWriter(_scratch);
            _mapper.Serialize(_orders[i], ref writer);
            _bsonMany[i] = writer.WrittenSpan.ToArray();
            _jsonMany[i] = JsonSerializer.SerializeToUtf8Bytes(_orders[i], OrderJsonContext.Default.CustomerOrder);
        }

        _bsonOne = _bsonMany[0];
        _jsonOne = _jsonMany[0];
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _jsonWriter.Dispose();
        ArrayPool<byte>.Shared.Return(_scratch);
    }

    [BenchmarkCategory("Serialize one"), Benchmark(Baseline = true)]
    public int Json_serialize_one() => WriteJson(_order);

    [BenchmarkCategory("Serialize one"), Benchmark]
    public int BLite_serialize_one() => WriteBson(_order);

    [BenchmarkCategory("Serialize 10,000"), Benchmark(Baseline = true, OperationsPerInvoke = ManyCount)]
    public int Json_serialize_many()
    {
        var total = 0;
        foreach (var order in _orders)
        {
            total += WriteJson(order);
        }

        return total;
    }

    [BenchmarkCategory("Serialize 10,000"), Benchmark(OperationsPerInvoke = ManyCount)]
    public int BLite_serialize_many()
    {
        var total = 0;
        foreach (var order in _orders)
        {
            total += WriteBson(order);
        }

        return total;
    }

    [BenchmarkCategory("Deserialize one"), Benchmark(Baseline = true)]
    public CustomerOrder Json_deserialize_one() => JsonSerializer.Deserialize(_jsonOne, OrderJsonContext.Default.CustomerOrder)!;

    [BenchmarkCategory("Deserialize one"), Benchmark]
    public CustomerOrder BLite_deserialize_one() => ReadBson(_bsonOne);

    [BenchmarkCategory("Deserialize 10,000"), Benchmark(Baseline = true, OperationsPerInvoke = ManyCount)]
    public int Json_deserialize_many()
    {
        var lines = 0;
        foreach (var json in _jsonMany)
        {
            lines += JsonSerializer.Deserialize(json, OrderJsonContext.Default.CustomerOrder)!.Lines.Count;
        }

        return lines;
    }

    [BenchmarkCategory("Deserialize 10,000"), Benchmark(OperationsPerInvoke = ManyCount)]
    public int BLite_deserialize_many()
    {
        var lines = 0;
        foreach (var bson in _bsonMany)
        {
            lines += ReadBson(bson).Lines.Count;
        }

        return lines;
    }

    private int WriteBson(CustomerOrder order)
    {
        var writer = new BsonSpanWriter(_scratch);
        _mapper.Serialize(order, ref writer);
        return writer.BytesWritten;
    }

    private int WriteJson(CustomerOrder order)
    {
        _jsonBuffer.ResetWrittenCount();
        _jsonWriter.Reset(_jsonBuffer);
        JsonSerializer.Serialize(_jsonWriter, order, OrderJsonContext.Default.CustomerOrder);
        return _jsonBuffer.WrittenCount;
    }

    private CustomerOrder ReadBson(byte[] bson)
    {
        var reader = new BsonSpanReader(bson);
        return _mapper.Deserialize(ref reader);
    }
}
