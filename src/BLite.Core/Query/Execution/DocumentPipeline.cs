using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// The in-memory tail of a plan over raw documents: residual filter, sort, skip and take. Sorting
/// is stable (ties keep input order, as LINQ's OrderBy does) and, when skip + take is small,
/// keeps only the best skip + take documents in a bounded heap instead of sorting everything.
/// </summary>
internal static class DocumentPipeline
{
    /// <summary>Above this many kept documents a full sort is cheaper than the heap.</summary>
    private const long TopKLimit = 10_000;

    public static IEnumerable<ReadOnlyMemory<byte>> Run(
        IEnumerable<ReadOnlyMemory<byte>> documents,
        FilterEvaluator? filter,
        IReadOnlyList<SortKey> sort,
        BsonFieldDictionary dictionary,
        long skip = 0,
        long take = long.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(documents);
        ArgumentNullException.ThrowIfNull(sort);
        ArgumentNullException.ThrowIfNull(dictionary);
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);
        var matching = filter is null ? documents : Filter(documents, filter);
        if (sort.Count > 0)
        {
            matching = Sort(matching, sort, dictionary, skip, take);
        }

        return Page(matching, skip, take);
    }

    private static IEnumerable<ReadOnlyMemory<byte>> Filter(IEnumerable<ReadOnlyMemory<byte>> documents, FilterEvaluator filter)
    {
        foreach (var document in documents)
        {
            if (filter.Matches(document.Span))
            {
                yield return document;
            }
        }
    }

    private static IEnumerable<ReadOnlyMemory<byte>> Page(IEnumerable<ReadOnlyMemory<byte>> documents, long skip, long take)
    {
        if (take == 0)
        {
            yield break;
        }

        long seen = 0;
        long returned = 0;
        foreach (var document in documents)
        {
            if (seen++ < skip)
            {
                continue;
            }

            yield return document;
            if (++returned == take)
            {
                yield break;
            }
        }
    }

    /// <summary>Sorts documents by <paramref name="sort"/>; only the first <paramref name="skip"/> + <paramref name="take"/> are guaranteed to be returned.</summary>
    public static IEnumerable<ReadOnlyMemory<byte>> Sort(IEnumerable<ReadOnlyMemory<byte>> documents, IReadOnlyList<SortKey> sort,
        BsonFieldDictionary dictionary, long skip = 0, long take = long.MaxValue)
    {
        var extractor = new SortKeyExtractor(sort, dictionary);
        var comparer = new EntryComparer(sort);
        var keep = take == long.MaxValue || skip > long.MaxValue - take ? long.MaxValue : skip + take;
        List<Entry> entries;
        if (keep <= TopKLimit)
        {
            entries = TopK(documents, extractor, comparer, (int)keep);
        }
        else
        {
            entries = [];
            var sequence = 0;
            foreach (var document in documents)
            {
                entries.Add(new Entry(extractor.Extract(document.Span), sequence++, document));
            }
        }

        entries.Sort(comparer);
        return entries.Select(e => e.Document);
    }

    private static List<Entry> TopK(IEnumerable<ReadOnlyMemory<byte>> documents, SortKeyExtractor extractor, EntryComparer comparer, int keep)
    {
        var kept = new List<Entry>();
        if (keep == 0)
        {
            return kept;
        }

        // A max-heap on the sort order: the root is the worst document kept so far.
        var heap = new PriorityQueue<Entry, Entry>(Comparer<Entry>.Create((a, b) => comparer.Compare(b, a)));
        var sequence = 0;
        foreach (var document in documents)
        {
            var entry = new Entry(extractor.Extract(document.Span), sequence++, document);
            if (heap.Count < keep)
            {
                heap.Enqueue(entry, entry);
            }
            else if (comparer.Compare(entry, heap.Peek()) < 0)
            {
                heap.DequeueEnqueue(entry, entry);
            }
        }

        while (heap.TryDequeue(out var entry, out _))
        {
            kept.Add(entry);
        }

        return kept;
    }

    private sealed record Entry(BsonValue[] Keys, int Sequence, ReadOnlyMemory<byte> Document);

    private sealed class EntryComparer(IReadOnlyList<SortKey> sort) : IComparer<Entry>
    {
        public int Compare(Entry? x, Entry? y)
        {
            for (var i = 0; i < sort.Count; i++)
            {
                var order = x!.Keys[i].CompareTo(y!.Keys[i]);
                if (order != 0)
                {
                    return sort[i].Descending ? -order : order;
                }
            }

            return x!.Sequence.CompareTo(y!.Sequence);
        }
    }
}

/// <summary>
/// Reads the sort keys of a raw document. A path reaching several values (through arrays) sorts
/// by the smallest of them ascending and the largest descending; a missing path sorts as null.
/// </summary>
internal sealed class SortKeyExtractor
{
    private readonly IReadOnlyList<SortKey> _sort;
    private readonly CompiledPath[] _paths;
    private readonly BsonFieldDictionary _dictionary;

    public SortKeyExtractor(IReadOnlyList<SortKey> sort, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(sort);
        ArgumentNullException.ThrowIfNull(dictionary);
        _sort = sort;
        _dictionary = dictionary;
        _paths = sort.Select(k => new CompiledPath(k.Path, dictionary)).ToArray();
    }

    public BsonValue[] Extract(ReadOnlySpan<byte> document)
    {
        var keys = new BsonValue[_paths.Length];
        var values = new List<BsonValue>();
        for (var i = 0; i < _paths.Length; i++)
        {
            values.Clear();
            _paths[i].CollectValues(document, _dictionary, values);
            var key = BsonValue.Null;
            for (var v = 0; v < values.Count; v++)
            {
                var order = values[v].CompareTo(key);
                if (v == 0 || (_sort[i].Descending ? order > 0 : order < 0))
                {
                    key = values[v];
                }
            }

            keys[i] = key;
        }

        return keys;
    }
}
