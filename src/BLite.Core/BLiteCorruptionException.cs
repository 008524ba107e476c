namespace BLite;

/// <summary>
/// The database file or its log holds bytes that fail a checksum or a structural check. The
/// database that raised it refuses further writes, because anything built on damaged pages
/// would spread the damage.
/// </summary>
public sealed class BLiteCorruptionException : BLiteException
{
    public BLiteCorruptionException(string filePath, uint? pageId, string message)
        : base(Describe(filePath, pageId, message))
    {
        FilePath = filePath;
        PageId = pageId;
    }

    public string FilePath { get; }

    public uint? PageId { get; }

    private static string Describe(string filePath, uint? pageId, string message) =>
        pageId is { } page
            ? $"Database '{filePath}' is corrupt at page {page}: {message}"
            : $"Database '{filePath}' is corrupt: {message}";
}
