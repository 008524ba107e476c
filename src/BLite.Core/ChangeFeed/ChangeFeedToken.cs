using System.Globalization;

namespace BLite;

/// <summary>
/// A position in the change feed: just after one event. Resuming with it delivers every later
/// change exactly once. The text form (<see cref="ToString"/>, <see cref="Parse"/>) is
/// <c>sequence:index</c>, or <c>sequence:end</c> after the last event of a transaction, so it
/// can be stored anywhere a string can.
/// </summary>
public readonly record struct ChangeFeedToken
{
    // Index value meaning "after the whole transaction": resuming needs nothing of it any more,
    // which is what lets a token survive the transaction being trimmed from the journal.
    private const uint TransactionEnd = uint.MaxValue;

    internal ChangeFeedToken(ulong sequence, uint index)
    {
        Sequence = sequence;
        Index = index;
    }

    /// <summary>The commit sequence of the transaction the event belongs to.</summary>
    public ulong Sequence { get; }

    /// <summary>The event's position in its transaction, or <see cref="uint.MaxValue"/> after the transaction's last event.</summary>
    public uint Index { get; }

    /// <summary>True when the token points after a transaction's last event.</summary>
    public bool IsTransactionEnd => Index == TransactionEnd;

    internal static ChangeFeedToken AfterTransaction(ulong sequence) => new(sequence, TransactionEnd);

    /// <summary>The first commit sequence a resume from here still needs from the journal.</summary>
    internal ulong FirstNeededSequence => IsTransactionEnd ? Sequence + 1 : Sequence;

    public override string ToString() =>
        IsTransactionEnd
            ? string.Create(CultureInfo.InvariantCulture, $"{Sequence}:end")
            : string.Create(CultureInfo.InvariantCulture, $"{Sequence}:{Index}");

    /// <summary>Reads the text form; throws <see cref="BLiteException"/> naming the text when it is not a token.</summary>
    public static ChangeFeedToken Parse(string text) =>
        TryParse(text, out var token)
            ? token
            : throw new BLiteException($"'{text}' is not a change feed token: expected 'sequence:index' or 'sequence:end' (for example '42:0' or '42:end').");

    public static bool TryParse(string? text, out ChangeFeedToken token)
    {
        token = default;
        var colon = text?.IndexOf(':') ?? -1;
        if (colon <= 0
            || !ulong.TryParse(text.AsSpan(0, colon), NumberStyles.None, CultureInfo.InvariantCulture, out var sequence))
        {
            return false;
        }

        var rest = text.AsSpan(colon + 1);
        if (rest.SequenceEqual("end"))
        {
            token = AfterTransaction(sequence);
            return true;
        }

        // Sequence 0 exists only as "before the first transaction" (0:end).
        if (sequence == 0 || !uint.TryParse(rest, NumberStyles.None, CultureInfo.InvariantCulture, out var index) || index == TransactionEnd)
        {
            return false;
        }

        token = new ChangeFeedToken(sequence, index);
        return true;
    }
}
