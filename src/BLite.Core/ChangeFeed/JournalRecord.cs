using System.Buffers.Binary;
using System.Text;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// The journal tree's keys and values (docs/format.md 5). Keys:
/// <code>
/// 0x00                                  → state (below)
/// 0x01 + u64 BE sequence + u32 BE index → event record
/// </code>
/// Big-endian in keys so byte order is commit order. State value, little-endian:
/// <code>
///  0  u8   version (1)
///  1  7    reserved, 0
///  8  u64  first retained sequence: every transaction below it was trimmed
/// 16  u64  last trimmed-or-written sequence seen by the last trim (the floor of the next
///          sequence when the trim emptied the journal)
/// </code>
/// Event record, little-endian:
/// <code>
///  0  u8   record version (1)
///  1  u8   operation (1 insert, 2 update, 3 delete)
///  2  u8   flags: bit 0 last event of its transaction, bit 1 after-image present, bit 2 before-image present
///  3  u8   collection name length n
///  4  i64  commit time, UTC ticks
/// 12  n    collection name, UTF-8
///  …       the id as a C-BSON document { _id: value }
///  …       the after-image (a C-BSON document), if flagged
///  …       the before-image (a C-BSON document), if flagged
/// </code>
/// </summary>
internal static class JournalRecord
{
    public const int KeySize = 13;
    public const byte StateKeyTag = 0x00;
    public const byte EventKeyTag = 0x01;
    public const int StateSize = 24;

    private const byte Version = 1;
    private const byte LastFlag = 1;
    private const byte AfterFlag = 2;
    private const byte BeforeFlag = 4;
    private const int HeaderSize = 12;

    public static ReadOnlySpan<byte> StateKey => [StateKeyTag];

    public static byte[] Key(ulong sequence, uint index)
    {
        var key = new byte[KeySize];
        key[0] = EventKeyTag;
        BinaryPrimitives.WriteUInt64BigEndian(key.AsSpan(1), sequence);
        BinaryPrimitives.WriteUInt32BigEndian(key.AsSpan(9), index);
        return key;
    }

    public static (ulong Sequence, uint Index) ReadKey(ReadOnlySpan<byte> key, string filePath)
    {
        if (key.Length != KeySize || key[0] != EventKeyTag)
        {
            throw new BLiteCorruptionException(filePath, null, $"the change journal holds a key of {key.Length} bytes that is not an event key.");
        }

        return (BinaryPrimitives.ReadUInt64BigEndian(key[1..]), BinaryPrimitives.ReadUInt32BigEndian(key[9..]));
    }

    public static byte[] Encode(PendingChange change, bool last, long commitTicks)
    {
        var nameLength = Encoding.UTF8.GetByteCount(change.Collection);
        var size = HeaderSize + nameLength + change.Id.Length + (change.After?.Length ?? 0) + (change.Before?.Length ?? 0);
        var bytes = new byte[size];
        var span = bytes.AsSpan();
        span[0] = Version;
        span[1] = (byte)change.Operation;
        span[2] = (byte)((last ? LastFlag : 0) | (change.After is null ? 0 : AfterFlag) | (change.Before is null ? 0 : BeforeFlag));
        span[3] = checked((byte)nameLength);
        BinaryPrimitives.WriteInt64LittleEndian(span[4..], commitTicks);
        var offset = HeaderSize + Encoding.UTF8.GetBytes(change.Collection, span[HeaderSize..]);
        change.Id.CopyTo(span[offset..]);
        offset += change.Id.Length;
        change.After?.CopyTo(span[offset..]);
        offset += change.After?.Length ?? 0;
        change.Before?.CopyTo(span[offset..]);
        return bytes;
    }

    public static JournalEvent Decode(ulong sequence, uint index, ReadOnlySpan<byte> record, string filePath)
    {
        try
        {
            if (record[0] != Version)
            {
                throw Corrupt(sequence, index, filePath, $"record version {record[0]} is unknown");
            }

            var operation = (ChangeOperation)record[1];
            if (operation is not (ChangeOperation.Insert or ChangeOperation.Update or ChangeOperation.Delete))
            {
                throw Corrupt(sequence, index, filePath, $"operation {record[1]} is unknown");
            }

            var flags = record[2];
            var ticks = BinaryPrimitives.ReadInt64LittleEndian(record[4..]);
            var offset = HeaderSize + record[3];
            var collection = Encoding.UTF8.GetString(record[HeaderSize..offset]);
            var id = ReadDocument(record, ref offset);
            var after = (flags & AfterFlag) != 0 ? ReadDocument(record, ref offset) : null;
            var before = (flags & BeforeFlag) != 0 ? ReadDocument(record, ref offset) : null;
            if (offset != record.Length)
            {
                throw Corrupt(sequence, index, filePath, $"{record.Length - offset} trailing bytes");
            }

            return new JournalEvent(sequence, index, (flags & LastFlag) != 0, new DateTime(ticks, DateTimeKind.Utc), operation, collection, id, after, before);
        }
        catch (Exception ex) when (ex is ArgumentException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            throw Corrupt(sequence, index, filePath, ex.Message);
        }
    }

    /// <summary>The commit time of an event record, read without decoding the rest.</summary>
    public static DateTime ReadCommitTime(ReadOnlySpan<byte> record) =>
        new(BinaryPrimitives.ReadInt64LittleEndian(record[4..]), DateTimeKind.Utc);

    public static (ulong FirstRetained, ulong LastSequence) ReadState(ReadOnlySpan<byte> state) =>
        (BinaryPrimitives.ReadUInt64LittleEndian(state[8..]), BinaryPrimitives.ReadUInt64LittleEndian(state[16..]));

    public static byte[] EncodeState(ulong firstRetained, ulong lastSequence)
    {
        var state = new byte[StateSize];
        state[0] = Version;
        BinaryPrimitives.WriteUInt64LittleEndian(state.AsSpan(8), firstRetained);
        BinaryPrimitives.WriteUInt64LittleEndian(state.AsSpan(16), lastSequence);
        return state;
    }

    private static byte[] ReadDocument(ReadOnlySpan<byte> record, ref int offset)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(record[offset..]);
        if (length < 5 || length > record.Length - offset)
        {
            throw new ArgumentOutOfRangeException(nameof(record), $"a document length of {length} does not fit the record");
        }

        var document = record.Slice(offset, length).ToArray();
        offset += length;
        return document;
    }

    private static BLiteCorruptionException Corrupt(ulong sequence, uint index, string filePath, string detail) =>
        new(filePath, null, $"change journal event {sequence}:{index} is malformed: {detail}.");
}
