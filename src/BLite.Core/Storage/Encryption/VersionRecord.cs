using System.Buffers.Binary;
using System.Security.Cryptography;

namespace BLite.Core.Storage.Encryption;

/// <summary>
/// What the last checkpoint of an encrypted database committed (encryption format 2): which
/// version of every page is current, through the hash of the version map, and which log the
/// file expects next to it. Two slots in the header page take turns, so a write torn by a crash
/// leaves the previous record whole; the record with the highest counter whose MAC holds wins.
/// <code>
/// offset  size  field (slot s lies at byte 1024 × (s + 1) of the header page)
///  0      8     counter C: how many checkpoints committed a version map
///  8      4     groups G: version map pages in use
/// 12      4     base log generation   \ the log the checkpoint copied from; if that exact log is
/// 16      4     base log salt          | still there after a crash before its restart, its frames
/// 20      4     zero                   | were sealed under the sealing counter and it must hold at
/// 24      8     base log sealing counter | least the durable frame count (no older copy of it)
/// 32      8     base log durable frames /
/// 40     32     root: SHA-256 of the G map pages' GCM tags, in group order
/// 72     32     MAC: HMAC-SHA256(header key, clear header bytes [0, 68) || record bytes [0, 72))
/// </code>
/// </summary>
internal sealed record VersionRecord(
    long Counter,
    int Groups,
    uint BaseGeneration,
    uint BaseSalt,
    long BaseSealingCounter,
    long BaseDurableFrames,
    byte[] Root)
{
    public const int Size = 104;
    private const int MacOffset = 72;

    public static VersionRecord Empty { get; } = new(0, 0, 0, 0, 0, 0, SHA256.HashData(ReadOnlySpan<byte>.Empty));

    public static int Offset(int slot) => 1024 * (slot + 1);

    /// <summary>The frames of log (generation, salt) are sealed under this counter: the base log's own, any later log's the current one.</summary>
    public long SealingCounterFor(uint generation, uint salt) =>
        generation == BaseGeneration && salt == BaseSalt && BaseGeneration != 0 ? BaseSealingCounter : Counter;

    public void Write(Span<byte> slot, ReadOnlySpan<byte> clearHeader, PageCipher cipher)
    {
        slot[..Size].Clear();
        BinaryPrimitives.WriteInt64LittleEndian(slot, Counter);
        BinaryPrimitives.WriteInt32LittleEndian(slot[8..], Groups);
        BinaryPrimitives.WriteUInt32LittleEndian(slot[12..], BaseGeneration);
        BinaryPrimitives.WriteUInt32LittleEndian(slot[16..], BaseSalt);
        BinaryPrimitives.WriteInt64LittleEndian(slot[24..], BaseSealingCounter);
        BinaryPrimitives.WriteInt64LittleEndian(slot[32..], BaseDurableFrames);
        Root.CopyTo(slot[40..]);
        cipher.HeaderMac(clearHeader, slot[..MacOffset], slot.Slice(MacOffset, 32));
    }

    /// <summary>The record in <paramref name="slot"/>, or null when its MAC fails (never written, torn, or forged).</summary>
    public static VersionRecord? TryRead(ReadOnlySpan<byte> slot, ReadOnlySpan<byte> clearHeader, PageCipher cipher)
    {
        Span<byte> mac = stackalloc byte[32];
        cipher.HeaderMac(clearHeader, slot[..MacOffset], mac);
        if (!CryptographicOperations.FixedTimeEquals(mac, slot.Slice(MacOffset, 32)))
        {
            return null;
        }

        return new VersionRecord(
            BinaryPrimitives.ReadInt64LittleEndian(slot),
            BinaryPrimitives.ReadInt32LittleEndian(slot[8..]),
            BinaryPrimitives.ReadUInt32LittleEndian(slot[12..]),
            BinaryPrimitives.ReadUInt32LittleEndian(slot[16..]),
            BinaryPrimitives.ReadInt64LittleEndian(slot[24..]),
            BinaryPrimitives.ReadInt64LittleEndian(slot[32..]),
            slot.Slice(40, 32).ToArray());
    }
}
