using BLite.Bson;
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
                target.EnsureSchema(write, [new CollectionDefinition(name, from.GetIndexes(snapshot))]);
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

                write.Commit();
                copied[name] = count;
            }
            finally
            {
                write.Dispose();
            }
        }

        return copied;
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
