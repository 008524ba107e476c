using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BLite.Benchmarks.Workload;
using BLite.Bson;
using BLite.PostgreSql.Jsonb;

namespace BLite.Benchmarks.Providers;

/// <summary>
/// The client-side cost of reading one CustomerOrder row on PostgreSQL, without a server: BLite's
/// generated mapper reads its jsonb text directly (what the provider does), or the older two steps
/// (jsonb transcoded to C-BSON, then the C-BSON mapper); the raw Npgsql peer hands its JSON text to
/// System.Text.Json's source-generated deserializer (the baseline).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class JsonbDecodeBenchmarks
{
    private CustomerOrderDocumentMapper _mapper = null!;
    private BsonFieldDictionary _fields = null!;
    private ArrayBufferWriter<byte> _bson = null!;
    private byte[] _jsonb = null!;
    private byte[] _json = null!;

    [GlobalSetup]
    public void Setup()
    {
        var order = new OrderGenerator(seed: 42).Generate(1)[0];
        _fields = new BsonFieldDictionary();
        _mapper = new CustomerOrderDocumentMapper(_fields);
        _bson = new ArrayBufferWriter<byte>(64 * 1024);
        var writer = new BsonSpanWriter(_bson);
        _mapper.Serialize(order, ref writer);
        writer.Flush();
        var text = new ArrayBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(text))
        {
            JsonbWriter.WriteDocument(_bson.WrittenSpan, json, _fields);
        }

        _jsonb = text.WrittenSpan.ToArray();
        _json = JsonSerializer.SerializeToUtf8Bytes(order, OrderJsonContext.Default.CustomerOrder);
    }

    [BenchmarkCategory("decode-one-row"), Benchmark(Baseline = true)]
    public CustomerOrder Json_deserialize() => JsonSerializer.Deserialize(_json, OrderJsonContext.Default.CustomerOrder)!;

    [BenchmarkCategory("decode-one-row"), Benchmark]
    public CustomerOrder BLite_jsonb_direct_to_order() => _mapper.ReadJsonb(_jsonb);

    [BenchmarkCategory("decode-one-row"), Benchmark]
    public CustomerOrder BLite_jsonb_to_order()
    {
        Transcode();
        var reader = new BsonSpanReader(_bson.WrittenSpan);
        return _mapper.Deserialize(ref reader);
    }

    [BenchmarkCategory("decode-one-row"), Benchmark]
    public int BLite_jsonb_to_bson() => Transcode();

    private int Transcode()
    {
        _bson.ResetWrittenCount();
        var writer = new BsonSpanWriter(_bson);
        JsonbReader.ReadDocument(_jsonb, ref writer, _fields);
        writer.Flush();
        return _bson.WrittenCount;
    }
}
