namespace BLite;

/// <summary>
/// One committed change, delivered by <c>Watch</c> after its transaction committed, in commit
/// order, with the other events of its transaction right next to it.
/// </summary>
public sealed class ChangeEvent<TId, T>
{
    internal ChangeEvent(ChangeOperation operation, string collection, TId id, T? document, T? before, ulong sequence, DateTime commitTime, bool isLastInTransaction, ChangeFeedToken token)
    {
        Operation = operation;
        Collection = collection;
        Id = id;
        Document = document;
        Before = before;
        Sequence = sequence;
        CommitTime = commitTime;
        IsLastInTransaction = isLastInTransaction;
        Token = token;
    }

    public ChangeOperation Operation { get; }

    /// <summary>The collection the document belongs to.</summary>
    public string Collection { get; }

    public TId Id { get; }

    /// <summary>The document after the change; null for a delete.</summary>
    public T? Document { get; }

    /// <summary>
    /// The document before an update or delete, when the collection was declared with
    /// <c>HasChangeFeed(includeBeforeImage: true)</c>; otherwise null.
    /// </summary>
    public T? Before { get; }

    /// <summary>The commit sequence of the transaction: every event of one transaction has the same one, and later commits have larger ones.</summary>
    public ulong Sequence { get; }

    /// <summary>When the transaction committed (UTC).</summary>
    public DateTime CommitTime { get; }

    /// <summary>True on the transaction's last event this watcher receives (its filters applied).</summary>
    public bool IsLastInTransaction { get; }

    /// <summary>Store it with what you did with the event; <see cref="WatchOptions.ResumeAfter"/> continues just after it.</summary>
    public ChangeFeedToken Token { get; }

    public override string ToString() => $"{Operation} {Collection} {Id} @ {Token}";
}
