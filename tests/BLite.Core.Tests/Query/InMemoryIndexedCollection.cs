using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query;

/// <summary>
/// Executes <see cref="QueryPlan"/>s over documents held in memory with sorted in-memory indexes
/// that follow the <see cref="IndexDescriptor"/> contract (missing fields indexed as null, one
/// entry per array element), so plans can be checked against a plain full scan.
/// </summary>
internal sealed class InMemoryIndexedCollection
{
    private readonly List<BsonDocument> _documents;
    private readonly Dictionary<string, List<(BsonValue[] Key, int Document)>> _entries = [];

    public InMemoryIndexedCollection(List<BsonDocument> documents, IReadOnlyList<IndexDescriptor> indexes)
    {
        _documents = documents;
        foreach (var index in indexes)
        {
            var entries = new List<(BsonValue[] Key, int Document)>();
            for (var i = 0; i < documents.Count; i++)
            {
                IEnumerable<BsonValue[]> keys = [[]];
                foreach (var field in index.Fields)
                {
                    var values = KeyValues(documents[i], field).ToList();
                    keys = keys.SelectMany(prefix => values.Select(v => prefix.Append(v).ToArray())).ToList();
                }

                entries.AddRange(keys.Select(k => (k, i)));
            }

            entries.Sort((x, y) => CompareKeys(x.Key, y.Key) is var order && order != 0 ? order : x.Document.CompareTo(y.Document));
            _entries[index.Name] = entries;
        }
    }

    private static IEnumerable<BsonValue> KeyValues(BsonDocument document, FieldPath path)
    {
        foreach (var reached in ReferenceEvaluator.Reach(document, path, expandLeafArrays: false))
        {
            if (reached is not { } value)
            {
                yield return BsonValue.Null;
            }
            else if (value.IsArray)
            {
                if (value.AsArray.Count == 0)
                {
                    yield return BsonValue.Null;
                }

                foreach (var item in value.AsArray)
                {
                    yield return item;
                }
            }
            else
            {
                yield return value;
            }
        }
    }

    private static int CompareKeys(BsonValue[] x, BsonValue[] y)
    {
        for (var i = 0; i < x.Length; i++)
        {
            var order = x[i].CompareTo(y[i]);
            if (order != 0)
            {
                return order;
            }
        }

        return 0;
    }

    public List<BsonDocument> Execute(QueryPlan plan, IReadOnlyList<BsonValue>? parameters)
    {
        IEnumerable<BsonDocument> candidates;
        var residual = plan.Residual;
        var needsSort = plan.NeedsSort;
        if (plan.IsFullScan || !plan.TryResolveRanges(parameters, out var ranges))
        {
            var fallback = plan.AsFullScan();
            candidates = _documents;
            residual = fallback.Residual;
            needsSort = fallback.NeedsSort;
        }
        else
        {
            candidates = Scan(plan, ranges);
        }

        var matching = candidates.Where(d => residual is null || ReferenceEvaluator.Matches(residual, d, parameters)).ToList();
        if (needsSort)
        {
            matching = SortReference(matching, plan.Query.Sort);
        }

        return matching.Skip((int)Math.Min(int.MaxValue, plan.Query.ResolveSkip(parameters)))
            .Take((int)Math.Min(int.MaxValue, plan.Query.ResolveTake(parameters))).ToList();
    }

    private IEnumerable<BsonDocument> Scan(QueryPlan plan, IReadOnlyList<IndexValueRange> ranges)
    {
        var entries = _entries[plan.Index!.Name];
        var seen = new HashSet<int>();
        foreach (var range in ranges)
        {
            var inRange = entries.Where(e => InRange(e.Key, range));
            foreach (var entry in plan.Descending ? inRange.Reverse() : inRange)
            {
                if (!plan.NeedsDeduplication || seen.Add(entry.Document))
                {
                    yield return _documents[entry.Document];
                }
            }
        }
    }

    private static bool InRange(BsonValue[] key, IndexValueRange range)
    {
        for (var i = 0; i < range.Prefix.Count; i++)
        {
            if (!BsonValueComparer.SameTypeClass(key[i], range.Prefix[i]) || key[i].CompareTo(range.Prefix[i]) != 0)
            {
                return false;
            }
        }

        var next = range.Prefix.Count;
        if (range.Lower is { } lower && !(BsonValueComparer.SameTypeClass(key[next], lower.Value)
            && key[next].CompareTo(lower.Value) is var l && (l > 0 || (l == 0 && lower.Inclusive))))
        {
            return false;
        }

        return range.Upper is not { } upper || (BsonValueComparer.SameTypeClass(key[next], upper.Value)
            && key[next].CompareTo(upper.Value) is var u && (u < 0 || (u == 0 && upper.Inclusive)));
    }

    /// <summary>Stable sort; a path reaching several values sorts by the smallest ascending and the largest descending.</summary>
    public static List<BsonDocument> SortReference(List<BsonDocument> documents, IReadOnlyList<SortKey> sort) =>
        documents.Select((d, i) => (Keys: sort.Select(k => SortValue(d, k)).ToArray(), Index: i, Document: d))
            .OrderBy(x => x, Comparer<(BsonValue[] Keys, int Index, BsonDocument Document)>.Create((x, y) =>
            {
                for (var i = 0; i < sort.Count; i++)
                {
                    var order = x.Keys[i].CompareTo(y.Keys[i]);
                    if (order != 0)
                    {
                        return sort[i].Descending ? -order : order;
                    }
                }

                return x.Index.CompareTo(y.Index);
            }))
            .Select(x => x.Document).ToList();

    public static BsonValue SortValue(BsonDocument document, SortKey key)
    {
        var values = ReferenceEvaluator.Reach(document, key.Path, expandLeafArrays: false)
            .Where(v => v is not null)
            .SelectMany(v => v!.Value.IsArray ? v.Value.AsArray.ToList() : [v.Value])
            .ToList();
        if (values.Count == 0)
        {
            return BsonValue.Null;
        }

        return key.Descending ? values.Max() : values.Min();
    }
}
