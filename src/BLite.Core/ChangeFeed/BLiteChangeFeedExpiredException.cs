namespace BLite;

/// <summary>
/// A watcher asked to resume from a token whose changes the journal no longer holds: retention
/// (by size or age) trimmed them. Resuming anyway would skip changes silently, so the watch
/// refuses; the application must rebuild its state (for example from a fresh read) and start at
/// <see cref="OldestAvailable"/> or now.
/// </summary>
public sealed class BLiteChangeFeedExpiredException : BLiteException
{
    public BLiteChangeFeedExpiredException(ChangeFeedToken token, ulong oldestAvailableSequence, string retention)
        : base($"Change feed token {token} has expired: the change journal now starts at commit sequence {oldestAvailableSequence} " +
               $"(retention: {retention}), so the changes between the token and that point are gone. Start again from a fresh read of the data.")
    {
        Token = token;
        OldestAvailableSequence = oldestAvailableSequence;
    }

    public ChangeFeedToken Token { get; }

    /// <summary>The oldest commit sequence the journal still holds.</summary>
    public ulong OldestAvailableSequence { get; }
}
