using System.Buffers.Binary;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// One committed transaction's journal events as the WAL carries them, in the transaction's log
/// record (docs/format.md 3 and 5), until a checkpoint folds them into the journal tree.
/// Little-endian:
/// <code>
///  0  u8   version (1)
///  1  3    reserved, 0
///  4  u32  event count c (at least 1)
///  8  u64  journal sequence of the transaction
/// 16  u64  journal offset after its last event (the next transaction's first offset)
/// 24  …    c times: u32 length, then the event record (<see cref="JournalRecord"/>, stamped)
/// </code>
/// </summary>
internal static class JournalLogRecord
{
    public const int HeaderSize = 24;
    private const byte Version = 1;

    /// <summary>The bytes in front of each event record: its length.</summary>
    public const int EventPrefixSize = 4;

    /// <summary>
    /// Writes the header of a log record whose <paramref name="count"/> events, each behind its
    /// length, already follow it in <paramref name="bytes"/> (the change batch builds them there).
    /// </summary>
    public static void WriteHeader(Span<byte> bytes, int count, ulong sequence, ulong nextOffset)
    {
        bytes[0] = Version;
        bytes[1..4].Clear();
        BinaryPrimitives.WriteInt32LittleEndian(bytes[4..], count);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[8..], sequence);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[16..], nextOffset);
    }

    /// <summary>The transaction's journal sequence and the journal offset after it.</summary>
    public static JournalTail ReadTail(ReadOnlySpan<byte> payload, string filePath)
    {
        Check(payload, filePath);
        return new JournalTail(BinaryPrimitives.ReadUInt64LittleEndian(payload[8..]), BinaryPrimitives.ReadUInt64LittleEndian(payload[16..]));
    }

    /// <summary>The transaction's event records, in order (the index of each is its position).</summary>
    public static List<byte[]> ReadEvents(ReadOnlySpan<byte> payload, string filePath)
    {
        var reader = new EventReader(payload, filePath);
        var events = new List<byte[]>(reader.Count);
        while (reader.MoveNext())
        {
            events.Add(reader.Current.ToArray());
        }

        return events;
    }

    /// <summary>
    /// Walks a log record's event records in place, in order, checking that they fill it exactly;
    /// for the fold, which writes each into the journal tree and keeps no copy.
    /// </summary>
    public ref struct EventReader
    {
        private readonly ReadOnlySpan<byte> _payload;
        private readonly string _filePath;
        private int _at;
        private int _index;

        public EventReader(ReadOnlySpan<byte> payload, string filePath)
        {
            Check(payload, filePath);
            _payload = payload;
            _filePath = filePath;
            Count = BinaryPrimitives.ReadInt32LittleEndian(payload[4..]);
            _at = HeaderSize;
        }

        public int Count { get; }

        public ReadOnlySpan<byte> Current { get; private set; }

        public bool MoveNext()
        {
            if (_index == Count)
            {
                return _at == _payload.Length ? false : throw Malformed(_filePath, $"{_payload.Length - _at} trailing bytes");
            }

            var length = _at + EventPrefixSize <= _payload.Length ? BinaryPrimitives.ReadInt32LittleEndian(_payload[_at..]) : -1;
            if (length < JournalRecord.HeaderSize || length > _payload.Length - _at - EventPrefixSize)
            {
                throw Malformed(_filePath, $"event {_index} of {Count} does not fit the record");
            }

            Current = _payload.Slice(_at + EventPrefixSize, length);
            _at += EventPrefixSize + length;
            _index++;
            return true;
        }
    }

    private static void Check(ReadOnlySpan<byte> payload, string filePath)
    {
        if (payload.Length < HeaderSize || payload[0] != Version || BinaryPrimitives.ReadInt32LittleEndian(payload[4..]) < 1)
        {
            throw Malformed(filePath, payload.Length < HeaderSize ? $"it is {payload.Length} bytes long" : $"version {payload[0]}, {BinaryPrimitives.ReadInt32LittleEndian(payload[4..])} events");
        }
    }

    private static BLiteCorruptionException Malformed(string filePath, string detail) =>
        new(filePath, null, $"a change journal record in the write-ahead log is malformed: {detail}.");
}
