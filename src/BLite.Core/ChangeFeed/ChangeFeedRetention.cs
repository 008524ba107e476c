namespace BLite;

/// <summary>
/// How much history the change journal keeps. Whole transactions are trimmed, oldest first, when
/// the journal is larger than <see cref="MaxBytes"/> or a transaction is older than
/// <see cref="MaxAge"/>; trimming runs at checkpoint (docs/changefeed.md).
/// </summary>
public sealed class ChangeFeedRetention
{
    /// <summary>Largest journal size in bytes of event records (default 64 MiB).</summary>
    public long MaxBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>Oldest transaction kept (default 7 days).</summary>
    public TimeSpan MaxAge { get; init; } = TimeSpan.FromDays(7);

    internal void Validate()
    {
        if (MaxBytes <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxBytes), MaxBytes, "The change journal's size limit must be positive.");
        }

        if (MaxAge <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(MaxAge), MaxAge, "The change journal's age limit must be positive.");
        }
    }

    public override string ToString() => $"at most {MaxBytes:N0} bytes and {MaxAge} of history";
}
