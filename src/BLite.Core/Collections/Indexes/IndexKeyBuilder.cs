using BLite.Bson;
using BLite.Core.Collections.Catalog;
using BLite.Core.Documents;

namespace BLite.Core.Collections.Indexes;

/// <summary>
/// Computes the distinct field keys one document contributes to one index: the values at each
/// path, combined (cartesian product when several paths reach arrays), each combination encoded
/// as one order-preserving composite key.
/// </summary>
internal static class IndexKeyBuilder
{
    /// <summary>
    /// Bounds the fan-out of multikey composite indexes, so one document cannot turn into an
    /// unbounded number of index writes.
    /// </summary>
    public const int MaxEntriesPerDocument = 10_000;

    /// <summary>Distinct field keys, sorted bytewise.</summary>
    public static List<byte[]> Build(ReadOnlySpan<byte> document, IndexInfo index, BsonFieldDictionary fields, string collectionName, int maxFieldKeyLength)
    {
        var paths = index.Paths;
        if (paths.Count == 1)
        {
            var values = new List<FieldValueRef>();
            FieldValueExtractor.Collect(document, paths[0], fields, values);
            CheckFanOut(values.Count, index, collectionName);
            var single = new List<byte[]>(values.Count);
            Span<FieldValueRef> one = stackalloc FieldValueRef[1];
            foreach (var value in values)
            {
                one[0] = value;
                single.Add(IndexKeyCodec.EncodeComponents(document, one, maxFieldKeyLength));
            }

            return SortDistinct(single);
        }

        var perPath = new List<FieldValueRef>[paths.Count];
        long combinations = 1;
        for (var i = 0; i < paths.Count; i++)
        {
            perPath[i] = [];
            FieldValueExtractor.Collect(document, paths[i], fields, perPath[i]);
            combinations *= perPath[i].Count;
            CheckFanOut(combinations, index, collectionName);
        }

        var keys = new List<byte[]>((int)combinations);
        var positions = new int[paths.Count];
        var combination = new FieldValueRef[paths.Count];
        while (true)
        {
            for (var i = 0; i < paths.Count; i++)
            {
                combination[i] = perPath[i][positions[i]];
            }

            keys.Add(IndexKeyCodec.EncodeComponents(document, combination, maxFieldKeyLength));
            var digit = paths.Count - 1;
            while (digit >= 0 && ++positions[digit] == perPath[digit].Count)
            {
                positions[digit] = 0;
                digit--;
            }

            if (digit < 0)
            {
                break;
            }
        }

        return SortDistinct(keys);
    }

    private static void CheckFanOut(long entries, IndexInfo index, string collectionName)
    {
        if (entries > MaxEntriesPerDocument)
        {
            throw new BLiteException(
                $"A document would add {entries} entries to index '{index.Definition.Name}' of collection '{collectionName}'; one document may add at most {MaxEntriesPerDocument} (arrays in several indexed fields multiply).");
        }
    }

    private static List<byte[]> SortDistinct(List<byte[]> keys)
    {
        if (keys.Count < 2)
        {
            return keys;
        }

        keys.Sort(static (a, b) => a.AsSpan().SequenceCompareTo(b));
        var write = 1;
        for (var read = 1; read < keys.Count; read++)
        {
            if (!keys[read].AsSpan().SequenceEqual(keys[write - 1]))
            {
                keys[write++] = keys[read];
            }
        }

        keys.RemoveRange(write, keys.Count - write);
        return keys;
    }
}
