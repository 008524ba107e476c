using System.Buffers.Binary;
using System.Text;
using BLite.Core.ChangeFeed;
using BLite.Core.Vectors;

namespace BLite.Core.Collections.Catalog;

/// <summary>
/// The catalog-tree value describing one collection (key: <c>0x01</c> + UTF-8 name).
/// Little-endian:
/// <code>
///  0  u8   record version (1)
///  1  u32  collection id (unique for the life of the file, never reused)
///  5  u32  root page of the primary B+ tree (_id key → document bytes)
///  9  u32  stats page (document count, sequence; see CollectionStats)
/// 13  u16  number of secondary indexes, then for each index:
///          u32 root page of its B+ tree
///          u8  flags (bit 0: unique)
///          u8  name length, name (UTF-8)
///          u8  number of fields, then per field: u16 path length, dotted path (UTF-8)
/// record version 2 only (written when the collection has vector indexes), then:
///     u16  number of vector indexes, then for each:
///          u32 root page of its HNSW graph tree
///          u8  name length, name (UTF-8); u16 path length, dotted path (UTF-8)
///          u16 dimensions, u8 metric, u8 M, u16 efConstruction
/// record version 3 only (written when the collection has a change feed): the version-2 vector
/// section (its count may be 0), then:
///     u8   change feed flags (bit 0: changes are journaled; bit 1: with the document before the change)
/// </code>
/// Tree roots never move (the B+ tree keeps its root page for its whole life), so this record
/// changes only when an index is created or dropped.
/// </summary>
internal static class CollectionRecord
{
    private const byte RecordVersion = 1;
    private const byte VectorRecordVersion = 2;
    private const byte ChangeFeedRecordVersion = 3;
    private const byte UniqueFlag = 1;

    public static byte[] Encode(CollectionInfo collection)
    {
        var size = 15;
        foreach (var index in collection.Indexes)
        {
            size += 4 + 1 + 1 + Encoding.UTF8.GetByteCount(index.Definition.Name) + 1;
            foreach (var path in index.Definition.FieldPaths)
            {
                size += 2 + Encoding.UTF8.GetByteCount(path);
            }
        }

        var version = collection.JournalsChanges ? ChangeFeedRecordVersion : collection.VectorIndexes.Count > 0 ? VectorRecordVersion : RecordVersion;
        if (version >= VectorRecordVersion)
        {
            size += version == ChangeFeedRecordVersion ? 3 : 2;
            foreach (var vector in collection.VectorIndexes)
            {
                size += 4 + 1 + Encoding.UTF8.GetByteCount(vector.Definition.Name) + 2 + Encoding.UTF8.GetByteCount(vector.Definition.FieldPath) + 6;
            }
        }

        var bytes = new byte[size];
        var span = bytes.AsSpan();
        span[0] = version;
        BinaryPrimitives.WriteUInt32LittleEndian(span[1..], collection.Id);
        BinaryPrimitives.WriteUInt32LittleEndian(span[5..], collection.PrimaryRoot);
        BinaryPrimitives.WriteUInt32LittleEndian(span[9..], collection.StatsPage);
        BinaryPrimitives.WriteUInt16LittleEndian(span[13..], checked((ushort)collection.Indexes.Count));
        var offset = 15;
        foreach (var index in collection.Indexes)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(span[offset..], index.RootPageId);
            span[offset + 4] = index.Definition.Unique ? UniqueFlag : (byte)0;
            offset += 5;
            offset += WriteShortString(span[offset..], index.Definition.Name);
            span[offset++] = (byte)index.Definition.FieldPaths.Count;
            foreach (var path in index.Definition.FieldPaths)
            {
                var length = Encoding.UTF8.GetBytes(path, span[(offset + 2)..]);
                BinaryPrimitives.WriteUInt16LittleEndian(span[offset..], checked((ushort)length));
                offset += 2 + length;
            }
        }

        if (version >= VectorRecordVersion)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(span[offset..], checked((ushort)collection.VectorIndexes.Count));
            offset += 2;
            foreach (var vector in collection.VectorIndexes)
            {
                var definition = vector.Definition;
                BinaryPrimitives.WriteUInt32LittleEndian(span[offset..], vector.RootPageId);
                offset += 4;
                offset += WriteShortString(span[offset..], definition.Name);
                var length = Encoding.UTF8.GetBytes(definition.FieldPath, span[(offset + 2)..]);
                BinaryPrimitives.WriteUInt16LittleEndian(span[offset..], checked((ushort)length));
                offset += 2 + length;
                BinaryPrimitives.WriteUInt16LittleEndian(span[offset..], checked((ushort)definition.Dimensions));
                span[offset + 2] = (byte)definition.Metric;
                span[offset + 3] = checked((byte)definition.M);
                BinaryPrimitives.WriteUInt16LittleEndian(span[(offset + 4)..], checked((ushort)definition.EfConstruction));
                offset += 6;
            }
        }

        if (version == ChangeFeedRecordVersion)
        {
            span[offset] = (byte)collection.ChangeFeed;
        }

        return bytes;
    }

    public static CollectionInfo Decode(string name, ReadOnlySpan<byte> record, string filePath)
    {
        try
        {
            if (record[0] is not (RecordVersion or VectorRecordVersion or ChangeFeedRecordVersion))
            {
                throw Corrupt(name, filePath, $"record version {record[0]} is unknown");
            }

            var id = BinaryPrimitives.ReadUInt32LittleEndian(record[1..]);
            var primaryRoot = BinaryPrimitives.ReadUInt32LittleEndian(record[5..]);
            var statsPage = BinaryPrimitives.ReadUInt32LittleEndian(record[9..]);
            var indexCount = BinaryPrimitives.ReadUInt16LittleEndian(record[13..]);
            var indexes = new IndexInfo[indexCount];
            var offset = 15;
            for (var i = 0; i < indexCount; i++)
            {
                var root = BinaryPrimitives.ReadUInt32LittleEndian(record[offset..]);
                var unique = (record[offset + 4] & UniqueFlag) != 0;
                offset += 5;
                var nameLength = record[offset++];
                var indexName = Encoding.UTF8.GetString(record.Slice(offset, nameLength));
                offset += nameLength;
                var fieldCount = record[offset++];
                var paths = new string[fieldCount];
                for (var f = 0; f < fieldCount; f++)
                {
                    var pathLength = BinaryPrimitives.ReadUInt16LittleEndian(record[offset..]);
                    paths[f] = Encoding.UTF8.GetString(record.Slice(offset + 2, pathLength));
                    offset += 2 + pathLength;
                }

                indexes[i] = new IndexInfo(new IndexDefinition(indexName, paths, unique), root);
            }

            var vectorIndexes = record[0] >= VectorRecordVersion ? DecodeVectorIndexes(record, ref offset) : [];
            var changeFeed = ChangeFeedMode.Off;
            if (record[0] == ChangeFeedRecordVersion)
            {
                changeFeed = (ChangeFeedMode)record[offset++];
                if (!ChangeFeedModes.IsStorable(changeFeed))
                {
                    throw Corrupt(name, filePath, $"change feed flags 0x{(byte)changeFeed:X2} are invalid");
                }
            }

            if (offset != record.Length)
            {
                throw Corrupt(name, filePath, $"{record.Length - offset} trailing bytes");
            }

            return new CollectionInfo(name, id, primaryRoot, statsPage, indexes, vectorIndexes, changeFeed);
        }
        catch (Exception ex) when (ex is ArgumentException or IndexOutOfRangeException or ArgumentOutOfRangeException or BLiteVectorException)
        {
            throw Corrupt(name, filePath, ex.Message);
        }
    }

    private static VectorIndexInfo[] DecodeVectorIndexes(ReadOnlySpan<byte> record, ref int offset)
    {
        var count = BinaryPrimitives.ReadUInt16LittleEndian(record[offset..]);
        offset += 2;
        var vectorIndexes = new VectorIndexInfo[count];
        for (var i = 0; i < count; i++)
        {
            var root = BinaryPrimitives.ReadUInt32LittleEndian(record[offset..]);
            offset += 4;
            var nameLength = record[offset++];
            var indexName = Encoding.UTF8.GetString(record.Slice(offset, nameLength));
            offset += nameLength;
            var pathLength = BinaryPrimitives.ReadUInt16LittleEndian(record[offset..]);
            var path = Encoding.UTF8.GetString(record.Slice(offset + 2, pathLength));
            offset += 2 + pathLength;
            var dimensions = BinaryPrimitives.ReadUInt16LittleEndian(record[offset..]);
            var metric = (VectorMetric)record[offset + 2];
            var m = record[offset + 3];
            var efConstruction = BinaryPrimitives.ReadUInt16LittleEndian(record[(offset + 4)..]);
            offset += 6;
            vectorIndexes[i] = new VectorIndexInfo(new VectorIndexDefinition(indexName, path, dimensions, metric, m, efConstruction), root);
        }

        return vectorIndexes;
    }

    private static int WriteShortString(Span<byte> destination, string value)
    {
        var length = Encoding.UTF8.GetBytes(value, destination[1..]);
        destination[0] = checked((byte)length);
        return 1 + length;
    }

    private static BLiteCorruptionException Corrupt(string name, string filePath, string detail) =>
        new(filePath, null, $"the catalog record of collection '{name}' is malformed: {detail}.");
}
