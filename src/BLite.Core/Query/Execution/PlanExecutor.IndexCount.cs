using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Query;

internal static partial class PlanExecutor
{
    /// <summary>2^53: every integer up to it converts to a double exactly, so its double key piece is exact too.</summary>
    private const long ExactDoubleInteger = 1L << 53;

    /// <summary>
    /// Counts index entries instead of documents when the index bounds say everything the filter
    /// says (<see cref="QueryPlan.CountsIndexEntries"/>) and this execution's values have exact key
    /// pieces. A value whose pieces may be wider than the value (instants, binaries, decimals,
    /// doubles, integers beyond 2^53: docs/query.md section 6) makes it fall back to fetching and
    /// re-checking documents.
    /// </summary>
    private static bool TryCountIndexEntries(RawCollection collection, IPageReader pages, QueryPlan plan, IReadOnlyList<BsonValue>? parameters,
        long skip, long take, out long count)
    {
        count = 0;
        if (!plan.CountsIndexEntries || !plan.TryResolveRanges(parameters, out var ranges) || !HaveExactKeys(ranges)
            || !ScanRunBuilder.TryBuild(ranges, collection.Database.Fields, out var runs))
        {
            return false;
        }

        var limit = Saturate(skip, take);
        var seen = plan.NeedsDeduplication || runs.Count > 1 ? new HashSet<byte[]>(ByteArrayComparer.Instance) : null;
        long entries = 0;
        foreach (var run in runs)
        {
            var cursor = collection.ScanIndexKeys(pages, plan.Index!.Name, run.Range);
            while (entries < limit && cursor.MoveNext())
            {
                if (seen is null || seen.Add(cursor.PrimaryKey.ToArray()))
                {
                    entries++;
                }
            }
        }

        count = Math.Min(Math.Max(0, entries - skip), take);
        return true;
    }

    private static bool HaveExactKeys(IReadOnlyList<IndexValueRange> ranges)
    {
        foreach (var range in ranges)
        {
            if (range.Lower is not null || range.Upper is not null)
            {
                return false;
            }

            foreach (var value in range.Prefix)
            {
                var exact = value.Type switch
                {
                    BsonType.String or BsonType.Int32 or BsonType.Boolean or BsonType.ObjectId => true,
                    BsonType.Int64 => value.AsInt64 is >= -ExactDoubleInteger and <= ExactDoubleInteger,
                    _ => false,
                };
                if (!exact)
                {
                    return false;
                }
            }
        }

        return true;
    }
}
