namespace BLite.Core.Diagnostics;

/// <summary>Receives page claims and problems from <see cref="IPageOwnershipSource"/>s during a verification.</summary>
internal sealed class PageOwnershipCollector
{
    private readonly Dictionary<uint, string> _owners;
    private readonly List<VerificationIssue> _issues;
    private readonly uint _pageCount;

    internal PageOwnershipCollector(uint pageCount, Dictionary<uint, string> owners, List<VerificationIssue> issues)
    {
        _pageCount = pageCount;
        _owners = owners;
        _issues = issues;
    }

    /// <summary>Records that <paramref name="owner"/> uses <paramref name="pageId"/>; a second claim on the same page is reported.</summary>
    public void Claim(uint pageId, string owner)
    {
        ArgumentNullException.ThrowIfNull(owner);
        if (pageId == 0 || pageId >= _pageCount)
        {
            ReportProblem(pageId, $"{owner} claims page {pageId}, which is {(pageId == 0 ? "the storage header" : $"beyond the last page ({_pageCount - 1})")}.");
            return;
        }

        if (!_owners.TryAdd(pageId, owner))
        {
            ReportProblem(pageId, $"page {pageId} is owned twice: by {_owners[pageId]} and by {owner}.");
        }
    }

    /// <summary>Reports a structural problem found by an ownership source.</summary>
    public void ReportProblem(uint? pageId, string message)
    {
        ArgumentNullException.ThrowIfNull(message);
        _issues.Add(new VerificationIssue(pageId, message));
    }
}
