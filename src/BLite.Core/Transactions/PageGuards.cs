using BLite.Core.Storage;

namespace BLite.Core.Transactions;

internal static class PageGuards
{
    public static void ThrowIfNotUserPage(uint pageId, uint pageCount)
    {
        if (pageId == PageIds.Header || pageId >= pageCount)
        {
            ThrowNotUserPage(pageId, pageCount);
        }
    }

    private static void ThrowNotUserPage(uint pageId, uint pageCount) =>
        throw new ArgumentOutOfRangeException(
            nameof(pageId),
            pageId,
            pageId == PageIds.Header
                ? "Page 0 is the storage engine's header and is never handed out."
                : $"Page {pageId} does not exist: this snapshot has {pageCount} pages.");
}
