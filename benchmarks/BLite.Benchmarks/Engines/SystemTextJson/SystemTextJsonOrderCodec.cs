using System.Buffers;
using System.Text.Json;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Engines.SystemTextJson;

/// <summary>
/// System.Text.Json with the source-generated context, writing UTF-8 into one reused buffer and
/// reading UTF-8 spans: the fastest way that library offers, so the comparison is fair to it.
/// </summary>
public sealed class SystemTextJsonOrderCodec : IOrderCodec
{
    private readonly ArrayBufferWriter<byte> _buffer = new(4096);
    private readonly Utf8JsonWriter _writer;

    public SystemTextJsonOrderCodec() => _writer = new Utf8JsonWriter(_buffer);

    public string Engine => "SystemTextJson";

    public ReadOnlySpan<byte> Serialize(CustomerOrder order)
    {
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        JsonSerializer.Serialize(_writer, order, OrderJsonContext.Default.CustomerOrder);
        return _buffer.WrittenSpan;
    }

    public CustomerOrder Deserialize(ReadOnlySpan<byte> bytes) =>
        JsonSerializer.Deserialize(bytes, OrderJsonContext.Default.CustomerOrder)
        ?? throw new JsonException("The JSON text holds null, not an order.");
}
