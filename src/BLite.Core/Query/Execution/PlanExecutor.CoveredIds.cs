using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Core.Query;

internal static partial class PlanExecutor
{
    /// <summary>
    /// The matching documents reduced to their <c>_id</c>, read from the secondary index's entries
    /// alone when the plan covers the query (<see cref="QueryPlan.CoversIds"/>) and this
    /// execution's values have exact key pieces: each item is a document holding only <c>_id</c>,
    /// in the order, with the de-duplication and the skip and take of <see cref="Execute"/>. Null
    /// when the plan does not cover this execution; run <see cref="Execute"/> then.
    /// </summary>
    /// <remarks>
    /// An ObjectId or string primary key decodes back to the stored value exactly; any other
    /// (a number loses its BSON width in the key, a composite id its field names) is answered by
    /// reading that one document, so the result never depends on what the key kept.
    /// </remarks>
    public static IEnumerable<ReadOnlyMemory<byte>>? TryExecuteIds(RawCollection collection, IPageReader pages, DocumentQuery query,
        IReadOnlyList<BsonValue>? parameters, QueryPlan plan)
    {
        ArgumentNullException.ThrowIfNull(collection);
        ArgumentNullException.ThrowIfNull(plan);
        if (!plan.CoversIds || !ReferenceEquals(plan.Query, query) || !plan.TryResolveRanges(parameters, out var ranges) || !HaveExactKeys(ranges)
            || !ScanRunBuilder.TryBuild(ranges, collection.Database.Fields, out var runs))
        {
            return null;
        }

        var skip = query.ResolveSkip(parameters);
        var take = query.ResolveTake(parameters);
        if (BLiteTelemetry.Queries.Enabled)
        {
            BLiteTelemetry.Queries.Add(1, [.. collection.TelemetryTags, new("blite.query.plan", "index")]);
        }

        if (take == 0)
        {
            return [];
        }

        var ids = CoveredIds(collection, pages, plan, runs, skip, take);
        return BLiteTelemetry.ActivitySource.HasListeners() ? QueryActivity.Trace(ids, collection, "index") : ids;
    }

    private static IEnumerable<ReadOnlyMemory<byte>> CoveredIds(RawCollection collection, IPageReader pages, QueryPlan plan, IReadOnlyList<ScanRun> runs,
        long skip, long take)
    {
        var keys = plan.IsIndexJoin ? JoinKeys(collection, pages, plan.Index!.Name, runs) : IndexOrderKeys(collection, pages, plan, runs);
        long skipped = 0;
        long returned = 0;
        byte[]? scratch = null;
        foreach (var key in keys)
        {
            if (skipped < skip)
            {
                skipped++;
                continue;
            }

            yield return IdDocument(collection, pages, key, ref scratch);
            if (++returned == take)
            {
                yield break;
            }
        }
    }

    /// <summary>The runs' primary keys in index order, each once (as <see cref="CandidateScanner"/> walks them).</summary>
    private static IEnumerable<byte[]> IndexOrderKeys(RawCollection collection, IPageReader pages, QueryPlan plan, IReadOnlyList<ScanRun> runs)
    {
        var seen = plan.NeedsDeduplication || runs.Count > 1 ? new HashSet<byte[]>(ByteArrayComparer.Instance) : null;
        foreach (var run in runs)
        {
            var cursor = collection.ScanIndexKeys(pages, plan.Index!.Name, run.Range);
            while (cursor.MoveNext())
            {
                var key = cursor.PrimaryKey.ToArray();
                if (seen is null || seen.Add(key))
                {
                    yield return key;
                }
            }
        }
    }

    /// <summary>The runs' primary keys sorted and distinct: the <c>_id</c> order an index join reads documents in.</summary>
    private static IEnumerable<byte[]> JoinKeys(RawCollection collection, IPageReader pages, string indexName, IReadOnlyList<ScanRun> runs)
    {
        var keys = IndexJoinScan.GatherKeys(collection, pages, indexName, runs);
        for (var i = 0; i < keys.Count; i++)
        {
            yield return keys[i].ToArray();
        }
    }

    /// <summary>
    /// A document holding only <c>_id</c>, written into <paramref name="scratch"/> (valid until the
    /// next call, as a yielded document is until the next is pulled).
    /// </summary>
    private static ReadOnlyMemory<byte> IdDocument(RawCollection collection, IPageReader pages, byte[] primaryKey, ref byte[]? scratch)
    {
        if (TryDecodeExactId(primaryKey) is { } id)
        {
            var size = id.Type == BsonType.String ? System.Text.Encoding.UTF8.GetMaxByteCount(id.AsString.Length) + 16 : 32;
            if (scratch is null || scratch.Length < size)
            {
                // Made on the first id, so a query that finds nothing allocates none.
                scratch = new byte[Math.Max(size, (scratch?.Length ?? 32) * 2)];
            }

            var writer = new BsonSpanWriter(scratch);
            var document = writer.BeginDocument();
            writer.WriteFieldHeader(id.Type, 0);
            if (id.Type == BsonType.String)
            {
                writer.WriteString(id.AsString);
            }
            else
            {
                writer.WriteObjectId(id.AsObjectId);
            }

            writer.EndDocument(document);
            return scratch.AsMemory(0, writer.BytesWritten);
        }

        if (!collection.TryFindById(pages, primaryKey, out var stored))
        {
            throw new BLiteException("An index entry names a document the collection does not hold.");
        }

        return stored;
    }

    private static BsonValue? TryDecodeExactId(ReadOnlySpan<byte> primaryKey)
    {
        var reader = new KeyReader(primaryKey);
        BsonValue? id = reader.PeekType() switch
        {
            KeyType.ObjectId => reader.ReadObjectId(),
            KeyType.String => reader.ReadString(),
            _ => null,
        };
        return reader.End ? id : null;
    }
}
