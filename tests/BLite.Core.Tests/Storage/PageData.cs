using System.Buffers.Binary;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>Helpers that stamp and read a 64-bit value (and a pattern derived from it) in a page payload.</summary>
internal static class PageData
{
    public static void Stamp(IPageWriter pages, uint pageId, long value)
    {
        var payload = pages.WritePage(pageId).Span;
        BinaryPrimitives.WriteInt64LittleEndian(payload, value);
        // A value-derived byte at the far end catches a page assembled from two different writes.
        payload[^1] = (byte)(value * 31);
    }

    /// <summary>Stamps <paramref name="value"/> into one page in a transaction of its own.</summary>
    public static void Commit(StorageEngine engine, uint pageId, long value)
    {
        using var write = engine.BeginWrite();
        Stamp(write, pageId, value);
        write.Commit();
    }

    public static long Read(IPageReader pages, uint pageId)
    {
        var payload = pages.ReadPage(pageId).Span;
        var value = BinaryPrimitives.ReadInt64LittleEndian(payload);
        Assert.Equal((byte)(value * 31), payload[^1]);
        return value;
    }
}
