using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Core.BTrees;

/// <summary>
/// Plugs one B+ tree into the database-wide consistency check: claims every page the tree
/// owns (nodes and overflow pages) and reports what <see cref="BTreeVerifier"/> finds.
/// </summary>
internal sealed class BTreeOwnershipSource : IPageOwnershipSource
{
    private readonly uint _rootPageId;

    public BTreeOwnershipSource(string name, uint rootPageId)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        Name = name;
        _rootPageId = rootPageId;
    }

    public string Name { get; }

    public void ClaimPages(IPageReader snapshot, PageOwnershipCollector collector)
    {
        ArgumentNullException.ThrowIfNull(snapshot);
        ArgumentNullException.ThrowIfNull(collector);
        var verification = BTreeVerifier.Verify(snapshot, _rootPageId);
        foreach (var pageId in verification.OwnedPages)
            collector.Claim(pageId, Name);
        foreach (var problem in verification.Problems)
            collector.ReportProblem(_rootPageId, $"{Name}: {problem}");
    }
}
