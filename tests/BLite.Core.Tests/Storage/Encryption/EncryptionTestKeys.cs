using System.Text;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage.Encryption;

internal static class EncryptionTestKeys
{
    public static readonly byte[] Key = [.. Enumerable.Range(1, 32).Select(i => (byte)i)];

    public static readonly byte[] OtherKey = [.. Enumerable.Range(101, 32).Select(i => (byte)i)];

    public const string Marker = "Zebra-Marker-7f3c91-confidential";

    public static StorageOptions Options(byte[]? key = null, int pageSize = 4096) => new()
    {
        PageSize = pageSize,
        Encryption = BLiteEncryption.WithKey(key ?? Key),
    };

    /// <summary>Whether <paramref name="bytes"/> holds the marker in UTF-8 or UTF-16 (either byte order).</summary>
    public static bool HoldsMarker(byte[] bytes) =>
        bytes.AsSpan().IndexOf(Encoding.UTF8.GetBytes(Marker)) >= 0
        || bytes.AsSpan().IndexOf(Encoding.Unicode.GetBytes(Marker)) >= 0
        || bytes.AsSpan().IndexOf(Encoding.BigEndianUnicode.GetBytes(Marker)) >= 0;

    /// <summary>Writes the marker (UTF-8 and UTF-16) into a new page, after an 8-byte stamp.</summary>
    public static uint WriteMarkerPage(StorageEngine engine, long stamp)
    {
        using var tx = engine.BeginWrite();
        var page = tx.AllocatePage();
        PageData.Stamp(tx, page, stamp);
        var payload = tx.WritePage(page).Span;
        var utf8 = Encoding.UTF8.GetBytes(Marker);
        utf8.CopyTo(payload[16..]);
        Encoding.Unicode.GetBytes(Marker).CopyTo(payload[(16 + utf8.Length)..]);
        tx.Commit();
        return page;
    }
}
