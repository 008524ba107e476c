using BLite.Bson;
using BLite.Core.Collections;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// The model's own reading of what a document contributes to an index, written over
/// <see cref="BsonDocument"/> (not over raw bytes) from the documented rules: missing → null,
/// arrays fan out, an empty array → null, a path continues into each document of an array (an
/// element lacking it → null, scalar elements → nothing), composites are the cartesian product.
/// </summary>
internal static class ModelIndexKeys
{
    public static List<byte[]> Keys(BsonDocument document, IReadOnlyList<string> paths, BsonFieldDictionary fields)
    {
        var perPath = paths.Select(path => ValuesAt(document, path.Split('.'))).ToList();
        var combinations = new List<List<BsonValue>> { new() };
        foreach (var values in perPath)
        {
            combinations = combinations.SelectMany(prefix => values.Select(v => new List<BsonValue>(prefix) { v })).ToList();
        }

        var keys = combinations.Select(c => IndexKeys.Encode(fields, c.ToArray())).ToList();
        keys.Sort(ByteComparer.Instance);
        return keys.Where((k, i) => i == 0 || ByteComparer.Instance.Compare(keys[i - 1], k) != 0).ToList();
    }

    private static List<BsonValue> ValuesAt(BsonDocument document, string[] segments)
    {
        var found = new List<BsonValue>();
        Collect(document, segments, 0, found);
        return found.Count == 0 ? [BsonValue.Null] : found;
    }

    private static void Collect(BsonDocument document, string[] segments, int depth, List<BsonValue> found)
    {
        if (!document.TryGetValue(segments[depth], out var value))
        {
            return;
        }

        var last = depth == segments.Length - 1;
        if (last)
        {
            if (value.IsArray)
            {
                found.AddRange(value.AsArray);
            }
            else
            {
                found.Add(value);
            }

            return;
        }

        if (value.IsDocument)
        {
            Collect(value.AsDocument, segments, depth + 1, found);
        }
        else if (value.IsArray)
        {
            foreach (var item in value.AsArray)
            {
                if (!item.IsDocument)
                {
                    continue;
                }

                var before = found.Count;
                Collect(item.AsDocument, segments, depth + 1, found);
                if (found.Count == before)
                {
                    found.Add(BsonValue.Null);
                }
            }
        }
    }
}

internal sealed class ByteComparer : IComparer<byte[]>
{
    public static readonly ByteComparer Instance = new();

    public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);
}
