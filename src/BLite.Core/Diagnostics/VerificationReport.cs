namespace BLite;

/// <summary>One problem found by the consistency checker.</summary>
public sealed record VerificationIssue(uint? PageId, string Message)
{
    public override string ToString() => PageId is { } page ? $"page {page}: {Message}" : Message;
}

/// <summary>The outcome of <c>StorageEngine.Verify</c>.</summary>
public sealed class VerificationReport
{
    internal VerificationReport(string path, uint pageCount, uint freePageCount, IReadOnlyList<VerificationIssue> issues)
    {
        Path = path;
        PageCount = pageCount;
        FreePageCount = freePageCount;
        Issues = issues;
    }

    public string Path { get; }

    public uint PageCount { get; }

    public uint FreePageCount { get; }

    public IReadOnlyList<VerificationIssue> Issues { get; }

    public bool IsValid => Issues.Count == 0;

    /// <summary>Throws <see cref="BLiteCorruptionException"/> listing every issue when there is any.</summary>
    public void ThrowIfInvalid()
    {
        if (!IsValid)
        {
            throw new BLiteCorruptionException(Path, Issues[0].PageId, $"{Issues.Count} consistency problem(s): {string.Join("; ", Issues)}");
        }
    }

    public override string ToString() =>
        IsValid ? $"'{Path}': {PageCount} pages, {FreePageCount} free, consistent" : $"'{Path}': {string.Join("; ", Issues)}";
}
