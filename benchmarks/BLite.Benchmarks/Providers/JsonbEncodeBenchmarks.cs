using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Workload;
using BLite.Bson;
using BLite.PostgreSql.Storage;

namespace BLite.Benchmarks.Providers;

/// <summary>
/// The client-side cost of writing one CustomerOrder row on PostgreSQL, without a server: BLite's
/// generated mapper writes jsonb text directly (what the provider does), or the older two steps
/// (C-BSON, then transcoded to jsonb); the raw Npgsql peer serializes with System.Text.Json's
/// source-generated serializer (the baseline). Each produces the finished text as a new array,
/// the parameter value Npgsql sends.
/// </summary>
[MemoryDiagnoser]
public class JsonbEncodeBenchmarks
{
    private CustomerOrderDocumentMapper _mapper = null!;
    private BsonFieldDictionary _fields = null!;
    private ArrayBufferWriter<byte> _bson = null!;
    private CustomerOrder _order = null!;

    [GlobalSetup]
    public void Setup()
    {
        _order = new OrderGenerator(seed: 42).Generate(1)[0];
        _fields = new BsonFieldDictionary();
        _mapper = new CustomerOrderDocumentMapper(_fields);
        _bson = new ArrayBufferWriter<byte>(64 * 1024);
    }

    [Benchmark(Baseline = true)]
    public byte[] Json_serialize() => JsonSerializer.SerializeToUtf8Bytes(_order, OrderJsonContext.Default.CustomerOrder);

    [Benchmark]
    public byte[] BLite_order_direct_to_jsonb() => JsonbText.Write(_mapper, _order);

    [Benchmark]
    public byte[] BLite_order_to_bson_to_jsonb()
    {
        _bson.ResetWrittenCount();
        var writer = new BsonSpanWriter(_bson);
        _mapper.Serialize(_order, ref writer);
        writer.Flush();
        return JsonbText.Write(_bson.WrittenSpan, _fields);
    }
}
