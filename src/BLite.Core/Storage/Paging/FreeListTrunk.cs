using System.Buffers.Binary;

namespace BLite.Core.Storage.Paging;

/// <summary>
/// A free-list trunk page: itself free, it lists other free pages. Trunks form a singly linked
/// list from the header's FreeListHead. Freeing a page touches one trunk (or makes the freed page
/// the new head trunk); allocating pops the head trunk's last entry, or the empty head trunk itself.
/// <code>
/// offset  size  field
/// 0       4     next trunk page (0 = last)
/// 4       4     entry count n
/// 8       4*n   free page ids
/// </code>
/// </summary>
internal static class FreeListTrunk
{
    private const int EntriesOffset = 8;

    public static int Capacity(int payloadSize) => (payloadSize - EntriesOffset) / sizeof(uint);

    public static uint Next(ReadOnlySpan<byte> payload) => BinaryPrimitives.ReadUInt32LittleEndian(payload);

    public static int Count(ReadOnlySpan<byte> payload) => (int)BinaryPrimitives.ReadUInt32LittleEndian(payload[4..]);

    public static uint Entry(ReadOnlySpan<byte> payload, int index) =>
        BinaryPrimitives.ReadUInt32LittleEndian(payload[(EntriesOffset + (index * sizeof(uint)))..]);

    public static void Initialize(Span<byte> payload, uint next)
    {
        payload.Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(payload, next);
    }

    public static void Push(Span<byte> payload, uint pageId)
    {
        var count = Count(payload);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[(EntriesOffset + (count * sizeof(uint)))..], pageId);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[4..], (uint)(count + 1));
    }

    public static uint Pop(Span<byte> payload)
    {
        var count = Count(payload) - 1;
        var entry = Entry(payload, count);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[(EntriesOffset + (count * sizeof(uint)))..], 0);
        BinaryPrimitives.WriteUInt32LittleEndian(payload[4..], (uint)count);
        return entry;
    }
}
