namespace BLite;

/// <summary>Where a new watcher starts: <see cref="Now"/>, the <see cref="Oldest"/> change the journal still holds, or just after a token.</summary>
public readonly record struct ChangeFeedStart
{
    private ChangeFeedStart(ChangeFeedStartKind kind, ChangeFeedToken token)
    {
        Kind = kind;
        Token = token;
    }

    /// <summary>Only changes committed after the watch is created.</summary>
    public static ChangeFeedStart Now => new(ChangeFeedStartKind.Now, default);

    /// <summary>Every change still in the journal, oldest first.</summary>
    public static ChangeFeedStart Oldest => new(ChangeFeedStartKind.Oldest, default);

    public ChangeFeedStartKind Kind { get; }

    /// <summary>The token to resume after, when <see cref="Kind"/> is <see cref="ChangeFeedStartKind.After"/>.</summary>
    public ChangeFeedToken Token { get; }

    /// <summary>
    /// Every change after the one <paramref name="token"/> came from, exactly once. The default
    /// token (<c>default(ChangeFeedToken)</c>, sequence 0 index 0) is no position in any feed and
    /// throws <see cref="ArgumentException"/>: it is what an unset token field holds.
    /// </summary>
    public static ChangeFeedStart After(ChangeFeedToken token) =>
        token == default
            ? throw new ArgumentException("The change feed token is default(ChangeFeedToken), which no change feed ever hands out (probably a token field that was never set): resume with a token taken from an event (ChangeEvent.Token) or read with ChangeFeedToken.Parse, or start with ChangeFeedStart.Oldest or ChangeFeedStart.Now.", nameof(token))
            : new(ChangeFeedStartKind.After, token);

    public static implicit operator ChangeFeedStart(ChangeFeedToken token) => After(token);

    /// <summary>Reads <c>now</c>, <c>oldest</c> or a token's text form; throws <see cref="BLiteException"/> otherwise.</summary>
    public static ChangeFeedStart Parse(string text) => text switch
    {
        "now" => Now,
        "oldest" => Oldest,
        _ => After(ChangeFeedToken.Parse(text)),
    };

    public override string ToString() => Kind switch
    {
        ChangeFeedStartKind.Now => "now",
        ChangeFeedStartKind.Oldest => "oldest",
        _ => Token.ToString(),
    };
}

public enum ChangeFeedStartKind
{
    Now,
    Oldest,
    After,
}
