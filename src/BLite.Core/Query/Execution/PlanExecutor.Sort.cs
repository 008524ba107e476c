using BLite.Bson;

namespace BLite.Core.Query;

internal static partial class PlanExecutor
{
    /// <summary>Above this many kept documents a full sort is cheaper than the heap.</summary>
    private const long TopNLimit = 10_000;

    private static IEnumerable<ReadOnlyMemory<byte>> Sorted(Execution execution)
    {
        var sort = execution.Query.Sort;
        var extractor = new SortKeyExtractor(sort, execution.Fields);
        var comparer = new SortedEntryComparer(sort);
        var keep = Saturate(execution.Skip, execution.Take);
        var entries = keep <= TopNLimit ? TopN(execution, extractor, comparer, (int)keep) : All(execution, extractor);
        entries.Sort(comparer);
        for (var i = execution.Skip; i < entries.Count && i - execution.Skip < execution.Take; i++)
        {
            execution.Scanner.Collection.CountRead(found: true);
            yield return entries[(int)i].Document;
        }
    }

    private static List<SortedEntry> All(Execution execution, SortKeyExtractor extractor)
    {
        var entries = new List<SortedEntry>();
        var scanner = execution.Scanner;
        while (scanner.MoveNext())
        {
            var document = scanner.Document.Span;
            if (execution.Filter.Matches(document))
            {
                entries.Add(new SortedEntry(extractor.Extract(document), scanner.PrimaryKey.ToArray(), document.ToArray()));
            }
        }

        return entries;
    }

    /// <summary>
    /// Keeps the best <paramref name="keep"/> documents in a max-heap whose root is the worst kept.
    /// When the scan walks the first sort key in order, a matching document worse than the root
    /// proves the rest of its key class is worse too, so the scan jumps past it.
    /// </summary>
    private static List<SortedEntry> TopN(Execution execution, SortKeyExtractor extractor, SortedEntryComparer comparer, int keep)
    {
        var kept = new List<SortedEntry>(Math.Min(keep, 1024));
        if (keep == 0)
        {
            return kept;
        }

        var heap = new PriorityQueue<SortedEntry, SortedEntry>(Comparer<SortedEntry>.Create((a, b) => comparer.Compare(b, a)));
        var scanner = execution.Scanner;
        var descending = execution.Query.Sort[0].Descending;
        while (scanner.MoveNext())
        {
            var document = scanner.Document.Span;
            if (!execution.Filter.Matches(document))
            {
                continue;
            }

            var keys = extractor.Extract(document);
            if (heap.Count < keep)
            {
                var entry = new SortedEntry(keys, scanner.PrimaryKey.ToArray(), document.ToArray());
                heap.Enqueue(entry, entry);
                continue;
            }

            var worst = heap.Peek();
            var candidate = new SortedEntry(keys, scanner.PrimaryKey.ToArray(), ReadOnlyMemory<byte>.Empty);
            if (comparer.Compare(candidate, worst) < 0)
            {
                var entry = candidate with { Document = document.ToArray() };
                heap.DequeueEnqueue(entry, entry);
            }
            else if (execution.OrderComponent >= 0
                && ScanOrder.IsPastInKeyClass(scanner.IndexKey, scanner.CurrentRun, execution.OrderComponent, keys[0], worst.Keys[0], descending, execution.MultiKey))
            {
                scanner.SkipRestOfKeyClass(execution.OrderComponent);
            }
        }

        while (heap.TryDequeue(out var entry, out _))
        {
            kept.Add(entry);
        }

        return kept;
    }

    private sealed record SortedEntry(BsonValue[] Keys, byte[] PrimaryKey, ReadOnlyMemory<byte> Document);

    /// <summary>By the sort keys, then by primary key: the order of a stable sort over a primary-key scan.</summary>
    private sealed class SortedEntryComparer(IReadOnlyList<SortKey> sort) : IComparer<SortedEntry>
    {
        public int Compare(SortedEntry? x, SortedEntry? y)
        {
            for (var i = 0; i < sort.Count; i++)
            {
                var order = x!.Keys[i].CompareTo(y!.Keys[i]);
                if (order != 0)
                {
                    return sort[i].Descending ? -order : order;
                }
            }

            return x!.PrimaryKey.AsSpan().SequenceCompareTo(y!.PrimaryKey);
        }
    }
}
