using BLite.Core.Storage;

namespace BLite.Core.Diagnostics;

/// <summary>
/// The consistency checker's extension point: a structure built on pages (a B+ tree, the
/// catalog, an overflow chain) enumerates the pages it owns and reports its own structural
/// problems, so <see cref="StorageEngine.Verify"/> can tell a page owned twice, a page both owned
/// and free, or (optionally) a leaked page.
/// </summary>
internal interface IPageOwnershipSource
{
    /// <summary>Names the structure in reports.</summary>
    string Name { get; }

    /// <summary>Claims every page the structure owns in <paramref name="snapshot"/>.</summary>
    void ClaimPages(IPageReader snapshot, PageOwnershipCollector collector);
}
