using BLite.Core.Storage;
using BLite.Core.Storage.Paging;
using BLite.Core.Transactions;

namespace BLite.Core.Diagnostics;

/// <summary>
/// Walks one snapshot: reads every page (checksum and trailer), checks the header, walks the
/// free list (range, duplicates, cycles, count), then gathers ownership claims from the
/// structures above and reports pages owned twice or both owned and free.
/// </summary>
internal static class ConsistencyChecker
{
    private const string FreeListOwner = "the free list";

    public static VerificationReport Check(StorageEngine engine, ReadTransaction snapshot, IReadOnlyList<IPageOwnershipSource> sources, bool requireEveryPageOwned)
    {
        var issues = new List<VerificationIssue>();
        var pageCount = snapshot.PageCount;
        var header = CheckHeader(engine, snapshot, issues);

        for (uint pageId = 1; pageId < pageCount; pageId++)
        {
            TryRead(snapshot, pageId, issues);
        }

        var owners = new Dictionary<uint, string> { [PageIds.Header] = "the storage header" };
        var freePages = header is { } h ? WalkFreeList(snapshot, h with { PageCount = pageCount }, owners, issues) : 0;

        var collector = new PageOwnershipCollector(pageCount, owners, issues);
        foreach (var source in sources)
        {
            source.ClaimPages(snapshot, collector);
        }

        if (requireEveryPageOwned)
        {
            for (uint pageId = 2; pageId < pageCount; pageId++)
            {
                if (!owners.ContainsKey(pageId))
                {
                    issues.Add(new VerificationIssue(pageId, "the page is neither free nor claimed by any structure (leaked)."));
                }
            }
        }

        return new VerificationReport(engine.Path, pageCount, freePages, issues);
    }

    private static DatabaseHeader? CheckHeader(StorageEngine engine, ReadTransaction snapshot, List<VerificationIssue> issues)
    {
        if (TryRead(snapshot, PageIds.Header, issues) is not { } payload)
        {
            return null;
        }

        var span = payload.Span;
        var header = DatabaseHeader.Read(span);
        if (!DatabaseHeader.HasMagic(span) || header.Version is 0 or > DatabaseHeader.FormatVersion || header.PageSize != engine.PageSize)
        {
            issues.Add(new VerificationIssue(PageIds.Header, "magic, version or page size differ from what the engine opened."));
        }

        if (header.DatabaseId != engine.DatabaseId)
        {
            issues.Add(new VerificationIssue(PageIds.Header, "the database id changed."));
        }

        if (header.PageCount < 2)
        {
            issues.Add(new VerificationIssue(PageIds.Header, $"page count {header.PageCount} is below the two permanent pages."));
        }

        // Page 0's count may lag the true one (the snapshot's) except in a format-1 file.
        if (header.PageCount > snapshot.PageCount || (engine.HeaderCarriesPageCount && header.PageCount != snapshot.PageCount))
        {
            issues.Add(new VerificationIssue(PageIds.Header, $"page 0 counts {header.PageCount} pages; the snapshot has {snapshot.PageCount}."));
        }

        return header;
    }

    private static uint WalkFreeList(ReadTransaction snapshot, DatabaseHeader header, Dictionary<uint, string> owners, List<VerificationIssue> issues)
    {
        uint counted = 0;
        var trunkId = header.FreeListHead;
        var capacity = FreeListTrunk.Capacity(snapshot.PagePayloadSize);
        while (trunkId != 0)
        {
            if (!IsFreeable(trunkId, header.PageCount))
            {
                issues.Add(new VerificationIssue(trunkId, "a free-list trunk pointer names a page that cannot be free."));
                break;
            }

            if (!owners.TryAdd(trunkId, FreeListOwner))
            {
                issues.Add(new VerificationIssue(trunkId, "the free list revisits this trunk page (cycle) or a page in it is also a trunk."));
                break;
            }

            counted++;
            if (TryRead(snapshot, trunkId, issues) is not { } payload)
            {
                break;
            }

            var trunk = payload.Span;
            var count = FreeListTrunk.Count(trunk);
            if (count > capacity)
            {
                issues.Add(new VerificationIssue(trunkId, $"the free-list trunk claims {count} entries; it holds at most {capacity}."));
                break;
            }

            for (var i = 0; i < count; i++)
            {
                var entry = FreeListTrunk.Entry(trunk, i);
                if (!IsFreeable(entry, header.PageCount))
                {
                    issues.Add(new VerificationIssue(entry, $"free-list trunk {trunkId} lists page {entry}, which cannot be free."));
                }
                else if (!owners.TryAdd(entry, FreeListOwner))
                {
                    issues.Add(new VerificationIssue(entry, "the page is on the free list twice."));
                }
                else
                {
                    counted++;
                }
            }

            trunkId = FreeListTrunk.Next(trunk);
        }

        if (counted != header.FreePageCount)
        {
            issues.Add(new VerificationIssue(PageIds.Header, $"the header counts {header.FreePageCount} free pages; the free list holds {counted}."));
        }

        return counted;
    }

    private static bool IsFreeable(uint pageId, uint pageCount) => pageId > PageIds.Catalog && pageId < pageCount;

    private static ReadOnlyMemory<byte>? TryRead(ReadTransaction snapshot, uint pageId, List<VerificationIssue> issues)
    {
        try
        {
            return snapshot.ReadAnyPage(pageId);
        }
        catch (BLiteCorruptionException exception)
        {
            issues.Add(new VerificationIssue(pageId, exception.Message));
            return null;
        }
    }
}
