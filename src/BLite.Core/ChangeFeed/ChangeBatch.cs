using BLite.Core.Transactions;

namespace BLite.Core.ChangeFeed;

/// <summary>The changes one write transaction made to collections with a change feed, journaled as it commits.</summary>
internal sealed class ChangeBatch : ICommitParticipant
{
    private readonly ChangeFeedHub _hub;
    private readonly List<byte[]> _changes = [];
    private JournalTail _appendedTail;

    public ChangeBatch(ChangeFeedHub hub) => _hub = hub;

    /// <summary>Adds an event record from <see cref="JournalRecord.Encode"/> (with log record headroom), stamped when the transaction commits.</summary>
    public void Add(byte[] record) => _changes.Add(record);

    public void BeforeSeal(WriteTransaction transaction)
    {
        if (_changes.Count > 0)
        {
            _appendedTail = _hub.Journal(transaction, _changes);
        }
    }

    public void AfterAppend()
    {
        if (_changes.Count > 0)
        {
            _hub.Appended(_appendedTail);
        }
    }

    public void AfterCommit()
    {
        if (_changes.Count > 0)
        {
            _hub.Signal();
        }
    }
}
