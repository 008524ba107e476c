using System.Buffers.Binary;
using BLite.Core.Transactions;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// The changes one write transaction made to collections with a change feed, journaled as it
/// commits. They are encoded as they happen, straight into the log record the commit will carry
/// (<see cref="JournalLogRecord"/>, built in the hub's <see cref="JournalArena"/>), so a commit
/// neither allocates nor copies its events. A database has one batch, reused by each write
/// transaction in turn: only the writer-slot holder records changes.
/// </summary>
internal sealed class ChangeBatch : ICommitParticipant
{
    private readonly ChangeFeedHub _hub;
    private readonly JournalArena _arena;
    private int _count;
    private bool _logged;
    private JournalTail _appendedTail;

    public ChangeBatch(ChangeFeedHub hub, JournalArena arena)
    {
        _hub = hub;
        _arena = arena;
    }

    /// <summary>Empties the batch for the write transaction that records its first change.</summary>
    public ChangeBatch Begin()
    {
        _arena.Begin();
        _count = 0;
        _logged = false;
        return this;
    }

    /// <summary>Adds an event (<see cref="JournalRecord"/>; the collection's name in UTF-8), stamped when the transaction commits.</summary>
    public void Add(ChangeOperation operation, ReadOnlySpan<byte> collection, ReadOnlySpan<byte> id, ReadOnlySpan<byte> after, ReadOnlySpan<byte> before)
    {
        // Everything that can refuse the event does so before the record grows: a half-written
        // event would make the commit's log record malformed.
        JournalRecord.CheckCollectionName(collection);
        var size = JournalRecord.EncodedSize(collection, id, after, before);
        var header = _count == 0 ? JournalLogRecord.HeaderSize : 0;
        var span = _arena.Extend(header + JournalLogRecord.EventPrefixSize + size)[header..];
        BinaryPrimitives.WriteInt32LittleEndian(span, size);
        JournalRecord.EncodeInto(span[JournalLogRecord.EventPrefixSize..], operation, collection, id, after, before);
        _count++;
    }

    public void BeforeSeal(WriteTransaction transaction)
    {
        _appendedTail = _hub.Journal(transaction, _arena, _count);
        _logged = !transaction.LogRecord.IsEmpty;
    }

    public void AfterAppend()
    {
        // The engine holds the log record until a checkpoint has folded it and no snapshot sees it.
        if (_logged)
        {
            _arena.Keep();
        }

        _hub.Appended(_appendedTail);
    }

    // Runs after the writer slot is released, when the next transaction may already be using
    // this batch: it reads none of the batch's state. A batch exists only for a transaction
    // that recorded a change, so there is always a commit to signal.
    public void AfterCommit() => _hub.Signal();
}
