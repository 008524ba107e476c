using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core;

internal sealed partial class DocumentDatabase
{
    private const int DocumentsPerCopyTransaction = 10_000;

    /// <summary>
    /// Copies every collection, with its index definitions and documents, from
    /// <paramref name="snapshot"/> of this database into <paramref name="target"/>, in _id order.
    /// Used by backup and by the CLI's <c>compact</c>: the copy is written densely, with no free
    /// pages and no half-empty pages left by deletions, and the snapshot never blocks this
    /// database's writer.
    /// </summary>
    /// <param name="progress">Called with the running total after each copied document.</param>
    /// <returns>Documents copied per collection.</returns>
    internal Dictionary<string, long> CopyTo(IPageReader snapshot, DocumentDatabase target, Action<long>? progress = null)
    {
        // With the same field ids on both sides a stored document is valid as is in the target and
        // is copied byte for byte; otherwise each one is decoded and re-encoded.
        var sameFieldIds = AlignFieldIds(Fields, target.Fields);
        var copied = new Dictionary<string, long>(StringComparer.Ordinal);
        long total = 0;
        foreach (var name in GetCollectionNames(snapshot))
        {
            var from = GetRawCollection(name);
            var to = target.GetRawCollection(name);
            var write = target.BeginWrite();
            try
            {
                target.EnsureSchema(write, [new CollectionDefinition(name, from.GetIndexes(snapshot), from.GetVectorIndexes(snapshot))]);
                var cursor = from.Scan(snapshot);
                long count = 0;
                while (cursor.MoveNext())
                {
                    if (sameFieldIds)
                    {
                        to.Insert(write, cursor.Document.Span);
                    }
                    else
                    {
                        to.Insert(write, BsonDocument.FromBytes(cursor.Document.Span, Fields).ToBytes(target.Fields));
                    }

                    count++;
                    progress?.Invoke(++total);
                    if (count % DocumentsPerCopyTransaction == 0)
                    {
                        write.Commit();
                        write.Dispose();
                        write = target.BeginWrite();
                    }
                }

                to.RaiseSequenceValue(write, from.SequenceValue(snapshot));
                write.Commit();
                copied[name] = count;
            }
            finally
            {
                write.Dispose();
            }
        }

        CopyChangeFeed(snapshot, target, sameFieldIds);
        return copied;
    }

    /// <summary>
    /// Carries the change journal and each collection's change feed setting over, after the
    /// documents (so copying them journals nothing): the copy keeps the same commit sequences,
    /// and a token taken from this database resumes against the copy.
    /// </summary>
    private void CopyChangeFeed(IPageReader snapshot, DocumentDatabase target, bool sameFieldIds)
    {
        using (var entries = ChangeJournal.Entries(snapshot, ChangeJournal.Open(snapshot, Catalog), Storage.Path).GetEnumerator())
        {
            var more = entries.MoveNext();
            ulong offset = 0;
            while (more)
            {
                using var write = target.BeginWrite();
                var tree = ChangeJournal.OpenOrCreate(write, target.Catalog);
                for (var i = 0; more && i < DocumentsPerCopyTransaction; i++)
                {
                    var (key, record) = entries.Current;
                    var value = key[0] != JournalRecord.EventKeyTag ? record
                        : sameFieldIds ? CopyEvent(key, record, ref offset)
                        : ReencodeEvent(key, record, target.Fields, ref offset);
                    tree.Upsert(write, key, value);
                    more = entries.MoveNext();
                }

                // Written around the target's change feed (under its writer slot): the tail it remembers, if any, is stale.
                target.ChangeFeed.ForgetTail();
                write.Commit();
            }
        }

        using var settings = target.BeginWrite();
        foreach (var name in GetCollectionNames(snapshot))
        {
            var mode = GetRawCollection(name).GetChangeFeed(snapshot);
            if (mode != ChangeFeedMode.Off)
            {
                target.GetRawCollection(name).SetChangeFeed(settings, mode);
            }
        }

        settings.Commit();
    }

    // Journal offsets count the copy's own bytes from 0, so its retention measures what it holds.
    private byte[] CopyEvent(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record, ref ulong offset)
    {
        var (sequence, index) = JournalRecord.ReadKey(key, Storage.Path);
        var (commitTime, _) = JournalRecord.ReadStamp(record, sequence, index, Storage.Path);
        var copy = record.ToArray();
        JournalRecord.Stamp(copy, JournalRecord.EndsTransaction(copy), commitTime.Ticks, offset);
        offset += JournalRecord.Footprint(copy.Length);
        return copy;
    }

    private byte[] ReencodeEvent(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record, BsonFieldDictionary targetFields, ref ulong offset)
    {
        var (sequence, index) = JournalRecord.ReadKey(key, Storage.Path);
        var change = JournalRecord.Decode(sequence, index, record, Storage.Path);
        byte[] Convert(byte[]? document) => document is null ? [] : BsonDocument.FromBytes(document, Fields).ToBytes(targetFields);
        var copy = JournalRecord.Encode(change.Operation, change.Collection, Convert(change.Id), Convert(change.After), Convert(change.Before));
        JournalRecord.Stamp(copy, change.EndsTransaction, change.CommitTime.Ticks, offset);
        offset += JournalRecord.Footprint(copy.Length);
        return copy;
    }

    /// <summary>Gives the (new, empty) target the source's names in the source's id order; false if the ids cannot match.</summary>
    private static bool AlignFieldIds(BsonFieldDictionary source, BsonFieldDictionary target)
    {
        var names = source.GetNamesFrom(0);
        for (var id = 0; id < names.Count; id++)
        {
            if (target.GetOrAdd(names[id]) != id)
            {
                return false;
            }
        }

        return true;
    }
}
