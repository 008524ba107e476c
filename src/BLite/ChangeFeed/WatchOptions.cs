namespace BLite;

/// <summary>Where a watch starts and which changes it delivers.</summary>
public sealed class WatchOptions
{
    /// <summary>
    /// Resume just after this token: every later change is delivered exactly once, in a new
    /// process too. Takes precedence over <see cref="StartAt"/>. A token retention has trimmed
    /// throws <see cref="BLiteChangeFeedExpiredException"/>.
    /// </summary>
    public ChangeFeedToken? ResumeAfter { get; init; }

    /// <summary>Where a watch without <see cref="ResumeAfter"/> starts (default <see cref="ChangeFeedStart.Now"/>).</summary>
    public ChangeFeedStart StartAt { get; init; } = ChangeFeedStart.Now;

    /// <summary>Only these operations; null or empty delivers every operation.</summary>
    public IReadOnlyCollection<ChangeOperation>? Operations { get; init; }

    internal ChangeFeedStart Start => ResumeAfter is { } token ? ChangeFeedStart.After(token) : StartAt;
}
