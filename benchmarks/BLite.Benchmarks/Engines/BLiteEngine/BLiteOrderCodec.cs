using BLite.Benchmarks.Workload;
using BLite.Bson;

namespace BLite.Benchmarks.Engines.BLiteEngine;

/// <summary>
/// BLite's compile-time C-BSON mapper for the workload (generated from <c>[BLiteDocument]</c> on
/// <see cref="CustomerOrder"/>), writing into one reused buffer as the engine does into its
/// scratch space, and reading straight from the bytes.
/// </summary>
public sealed class BLiteOrderCodec : IOrderCodec
{
    // Room for the largest workload document (an order with a 64 KB note) with margin.
    private const int BufferSize = 256 * 1024;

    private readonly CustomerOrderDocumentMapper _mapper = new(new BsonFieldDictionary());
    private readonly byte[] _buffer = new byte[BufferSize];

    public string Engine => "BLite";

    public ReadOnlySpan<byte> Serialize(CustomerOrder order)
    {
        var writer = new BsonSpanWriter(_buffer);
        _mapper.Serialize(order, ref writer);
        return _buffer.AsSpan(0, writer.BytesWritten);
    }

    public CustomerOrder Deserialize(ReadOnlySpan<byte> bytes)
    {
        var reader = new BsonSpanReader(bytes);
        return _mapper.Deserialize(ref reader);
    }
}
