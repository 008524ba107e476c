using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Engines;

/// <summary>
/// Turns one order into bytes and back, the way an engine does on every write and read:
/// BLite's generated C-BSON mapper, MemoryPack's generated binary formatter, or System.Text.Json
/// for the JSON peers.
/// </summary>
public interface IOrderCodec
{
    /// <summary>"BLite", "MemoryPack" or "SystemTextJson".</summary>
    string Engine { get; }

    /// <summary>Serializes into a buffer the codec reuses; the span is valid until the next call.</summary>
    ReadOnlySpan<byte> Serialize(CustomerOrder order);

    CustomerOrder Deserialize(ReadOnlySpan<byte> bytes);
}
