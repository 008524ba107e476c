namespace BLite.Core.Transactions;

/// <summary>
/// Work a layer above the pages attaches to one write transaction: it writes its last pages just
/// before the transaction is sealed (so they commit in the same WAL record as everything else),
/// and hears when the commit is durable and visible. A rollback simply drops it.
/// </summary>
internal interface ICommitParticipant
{
    /// <summary>Called once, with the transaction still writable, right before it is sealed. An exception fails the commit.</summary>
    void BeforeSeal(WriteTransaction transaction);

    /// <summary>Called once the commit is durable (per the engine's durability) and visible to new readers.</summary>
    void AfterCommit();
}
