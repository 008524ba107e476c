namespace BLite.Core.ChangeFeed;

/// <summary>One change as the journal holds it: the raw C-BSON of the id and the images, in this database's field ids.</summary>
internal sealed class JournalEvent
{
    public JournalEvent(ulong sequence, uint index, bool endsTransaction, DateTime commitTime, ChangeOperation operation, string collection, byte[] id, byte[]? after, byte[]? before)
    {
        Sequence = sequence;
        Index = index;
        EndsTransaction = endsTransaction;
        CommitTime = commitTime;
        Operation = operation;
        Collection = collection;
        Id = id;
        After = after;
        Before = before;
    }

    public ulong Sequence { get; }

    public uint Index { get; }

    /// <summary>True on the last event of its transaction (of those delivered, once filtered).</summary>
    public bool EndsTransaction { get; }

    public DateTime CommitTime { get; }

    public ChangeOperation Operation { get; }

    public string Collection { get; }

    /// <summary>A C-BSON document <c>{ _id: value }</c>.</summary>
    public byte[] Id { get; }

    /// <summary>The document after the change; null for a delete.</summary>
    public byte[]? After { get; }

    /// <summary>The document before an update or delete, when the collection keeps before-images.</summary>
    public byte[]? Before { get; }

    public ChangeFeedToken Token => EndsTransaction ? ChangeFeedToken.AfterTransaction(Sequence) : new ChangeFeedToken(Sequence, Index);

    /// <summary>The image a predicate is tested on: the new document, or for a delete the old one (when kept).</summary>
    public byte[]? Subject => After ?? Before;

    public JournalEvent AsTransactionEnd() =>
        EndsTransaction ? this : new JournalEvent(Sequence, Index, true, CommitTime, Operation, Collection, Id, After, Before);
}
