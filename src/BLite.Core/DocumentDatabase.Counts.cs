using BLite.Core.Collections;
using BLite.Core.Collections.Catalog;
using BLite.Core.Transactions;

namespace BLite.Core;

internal sealed partial class DocumentDatabase
{
    /// <summary>Collections whose count this open rebuilt because a crash left it pending (for the crash tests).</summary>
    internal int RecountedCollections { get; private set; }

    /// <summary>
    /// Document counts live in the engine's memory between checkpoints (docs/storage.md,
    /// "Counters"): every checkpoint writes them back first, and an open after a crash recounts the
    /// collections whose stats page says their count was pending. A crash leaves such a page
    /// behind with or without commits to recover: a background checkpoint's finish copies the
    /// pages committed after its counters' transaction, flag set, and then empties the log.
    /// </summary>
    private void KeepDocumentCounts()
    {
        if (Storage.Options.ReadOnly)
        {
            return;
        }

        Storage.SetCounterPersister(PersistCounts);
        if (!Storage.OpenedAfterUncleanClose)
        {
            // A clean close persisted every count; not reading the stats pages keeps a damaged
            // collection from failing the open of the others.
            return;
        }

        bool pending;
        using (var read = Storage.BeginRead())
        {
            pending = HasPendingCount(read);
        }

        if (pending)
        {
            using var write = Storage.BeginWrite();
            PersistCounts(write);
            write.Commit();
        }
    }

    private bool HasPendingCount(ReadTransaction pages)
    {
        foreach (var collection in Catalog.GetSnapshot(pages).Collections)
        {
            if (CollectionStats.IsCountPending(pages.ReadPage(collection.StatsPage).Span))
            {
                RecountedCollections++;
            }
        }

        return RecountedCollections > 0;
    }

    private void PersistCounts(WriteTransaction pages)
    {
        foreach (var collection in Catalog.GetSnapshot(pages).Collections)
        {
            DocumentCount.Persist(pages, collection);
        }
    }
}
