namespace BLite.Core.Transactions;

/// <summary>
/// Work a layer above the pages attaches to one write transaction: it writes its last pages just
/// before the transaction is sealed (so they commit in the same WAL record as everything else),
/// and hears when the commit reached the log and when it is durable and visible. A rollback
/// simply drops it.
/// </summary>
internal interface ICommitParticipant
{
    /// <summary>Called once, with the transaction still writable, right before it is sealed. An exception fails the commit.</summary>
    void BeforeSeal(WriteTransaction transaction);

    /// <summary>
    /// Called once the transaction is appended to the log, still under the writer slot (so before
    /// the next writer's <see cref="BeforeSeal"/>). Not called when the commit fails before that,
    /// nor when it had nothing to write. Must not throw.
    /// </summary>
    void AfterAppend();

    /// <summary>Called once the commit is durable (per the engine's durability) and visible to new readers.</summary>
    void AfterCommit();
}
