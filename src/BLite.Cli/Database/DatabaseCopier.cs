using BLite.Bson;
using BLite.Cli.Output;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core;

namespace BLite.Cli.Database;

/// <summary>
/// Copies every collection, with its index definitions and documents, from one database snapshot
/// into another database, in _id order. Used by <c>compact</c>: the copy is written densely, with
/// no free pages and no half-empty pages left by deletions.
/// </summary>
internal static class DatabaseCopier
{
    private const int DocumentsPerTransaction = 10_000;

    /// <returns>Documents copied per collection.</returns>
    public static Dictionary<string, long> Copy(DocumentDatabase source, IPageReader snapshot, DocumentDatabase target, ProgressBar progress)
    {
        // With the same field ids on both sides a stored document is valid as is in the target and
        // is copied byte for byte; otherwise each one is decoded and re-encoded.
        var sameFieldIds = AlignFieldIds(source.Fields, target.Fields);
        var copied = new Dictionary<string, long>(StringComparer.Ordinal);
        long total = 0;
        foreach (var name in source.GetCollectionNames(snapshot))
        {
            var from = source.GetRawCollection(name);
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
                        to.Insert(write, BsonDocument.FromBytes(cursor.Document.Span, source.Fields).ToBytes(target.Fields));
                    }

                    count++;
                    progress.Report(++total);
                    if (count % DocumentsPerTransaction == 0)
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
