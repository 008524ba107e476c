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
///  0  u8   record version (2)
///  1  u8   operation (1 insert, 2 update, 3 delete)
///  2  u8   flags: bit 0 last event of its transaction, bit 1 after-image present, bit 2 before-image present
///  3  u8   collection name length n
///  4  i64  commit time, UTC ticks
/// 12  u64  journal offset: the bytes (key and record) of the events journaled before this one,
///          counted from 0 at the first event written into an empty journal
/// 20  n    collection name, UTF-8
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

    /// <summary>The fixed part of an event record: what trimming reads of each transaction's first event.</summary>
    public const int HeaderSize = 20;

    private const byte StateVersion = 1;
    private const byte Version = 2;
    private const byte LastFlag = 1;
    private const byte AfterFlag = 2;
    private const byte BeforeFlag = 4;

    public static ReadOnlySpan<byte> StateKey => [StateKeyTag];

    public static byte[] Key(ulong sequence, uint index)
    {
        var key = new byte[KeySize];
        WriteKey(key, sequence, index);
        return key;
    }

    /// <summary>Writes an event's key into <paramref name="key"/> (<see cref="KeySize"/> bytes) and returns it.</summary>
    public static ReadOnlySpan<byte> WriteKey(Span<byte> key, ulong sequence, uint index)
    {
        key[0] = EventKeyTag;
        BinaryPrimitives.WriteUInt64BigEndian(key[1..], sequence);
        BinaryPrimitives.WriteUInt32BigEndian(key[9..], index);
        return key[..KeySize];
    }

    public static (ulong Sequence, uint Index) ReadKey(ReadOnlySpan<byte> key, string filePath)
    {
        if (key.Length != KeySize || key[0] != EventKeyTag)
        {
            throw new BLiteCorruptionException(filePath, null, $"the change journal holds a key of {key.Length} bytes that is not an event key.");
        }

        return (BinaryPrimitives.ReadUInt64BigEndian(key[1..]), BinaryPrimitives.ReadUInt32BigEndian(key[9..]));
    }

    /// <summary>
    /// An event record whose commit time, journal offset and last-event flag are set by
    /// <see cref="Stamp"/> when its transaction commits. An empty image is an absent one (a
    /// C-BSON document is never empty).
    /// </summary>
    public static byte[] Encode(ChangeOperation operation, string collection, ReadOnlySpan<byte> id, ReadOnlySpan<byte> after, ReadOnlySpan<byte> before)
    {
        var name = Encoding.UTF8.GetBytes(collection);
        var bytes = GC.AllocateUninitializedArray<byte>(EncodedSize(name, id, after, before));
        EncodeInto(bytes, operation, name, id, after, before);
        return bytes;
    }

    /// <summary>Refuses a collection name (UTF-8) longer than an event record can hold.</summary>
    public static void CheckCollectionName(ReadOnlySpan<byte> collection)
    {
        if (collection.Length > byte.MaxValue)
        {
            throw new BLiteException($"A collection with a change feed needs a name of at most {byte.MaxValue} UTF-8 bytes; this one has {collection.Length}.");
        }
    }

    /// <summary>The length of the record <see cref="EncodeInto"/> writes (<paramref name="collection"/> is the name in UTF-8).</summary>
    public static int EncodedSize(ReadOnlySpan<byte> collection, ReadOnlySpan<byte> id, ReadOnlySpan<byte> after, ReadOnlySpan<byte> before) =>
        HeaderSize + collection.Length + id.Length + after.Length + before.Length;

    /// <summary>As <see cref="Encode"/>, into <paramref name="span"/> of exactly <see cref="EncodedSize"/> bytes.</summary>
    public static void EncodeInto(Span<byte> span, ChangeOperation operation, ReadOnlySpan<byte> collection, ReadOnlySpan<byte> id, ReadOnlySpan<byte> after, ReadOnlySpan<byte> before)
    {
        span[0] = Version;
        span[1] = (byte)operation;
        span[2] = (byte)((after.IsEmpty ? 0 : AfterFlag) | (before.IsEmpty ? 0 : BeforeFlag));
        CheckCollectionName(collection);
        span[3] = (byte)collection.Length;
        span[4..HeaderSize].Clear();
        collection.CopyTo(span[HeaderSize..]);
        var offset = HeaderSize + collection.Length;
        id.CopyTo(span[offset..]);
        offset += id.Length;
        after.CopyTo(span[offset..]);
        before.CopyTo(span[(offset + after.Length)..]);
    }

    /// <summary>Sets what is known only at commit: whether the event ends its transaction, the commit time and the journal offset.</summary>
    public static void Stamp(Span<byte> record, bool last, long commitTicks, ulong journalOffset)
    {
        record[2] = (byte)((record[2] & ~LastFlag) | (last ? LastFlag : 0));
        BinaryPrimitives.WriteInt64LittleEndian(record[4..], commitTicks);
        BinaryPrimitives.WriteUInt64LittleEndian(record[12..], journalOffset);
    }

    /// <summary>Whether the event is the last of its transaction.</summary>
    public static bool EndsTransaction(ReadOnlySpan<byte> record) => (record[2] & LastFlag) != 0;

    /// <summary>The bytes an event takes in the journal's accounting: its key and its record.</summary>
    public static ulong Footprint(int recordLength) => (ulong)(KeySize + recordLength);

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

    /// <summary>The commit time and journal offset of an event, read from its first <see cref="HeaderSize"/> bytes.</summary>
    public static (DateTime CommitTime, ulong JournalOffset) ReadStamp(ReadOnlySpan<byte> header, ulong sequence, uint index, string filePath)
    {
        if (header.Length < HeaderSize || header[0] != Version)
        {
            throw Corrupt(sequence, index, filePath, header.Length < HeaderSize ? $"it is shorter than its {HeaderSize}-byte header" : $"record version {header[0]} is unknown");
        }

        var ticks = BinaryPrimitives.ReadInt64LittleEndian(header[4..]);
        if (ticks < 0 || ticks > DateTime.MaxValue.Ticks)
        {
            throw Corrupt(sequence, index, filePath, $"commit time {ticks} is out of range");
        }

        return (new DateTime(ticks, DateTimeKind.Utc), BinaryPrimitives.ReadUInt64LittleEndian(header[12..]));
    }

    public static (ulong FirstRetained, ulong LastSequence) ReadState(ReadOnlySpan<byte> state) =>
        (BinaryPrimitives.ReadUInt64LittleEndian(state[8..]), BinaryPrimitives.ReadUInt64LittleEndian(state[16..]));

    public static byte[] EncodeState(ulong firstRetained, ulong lastSequence)
    {
        var state = new byte[StateSize];
        state[0] = StateVersion;
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
