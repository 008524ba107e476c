using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Collections.Catalog;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// A stats page whose count is pending while the engine holds no counter for it: what a kill
/// leaves behind after a background checkpoint copied such a page and emptied the log
/// (docs/storage.md, "Counters"). Built here by writing the flag directly and closing, since a
/// close persists only the counts changed since open.
/// </summary>
public sealed class PendingCountTests
{
    [Fact]
    public void Inserts_and_deletes_keep_the_count_exact_when_it_must_be_walked_from_the_index()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.InsertMany(Enumerable.Range(1, 3).Select(i => new BsonDocument { ["_id"] = i }));
        test.Reopen();
        items = test.Collection("items");
        MarkCountPendingWithoutCounter(test.Database, items, storedCount: 100);

        items.Insert(new BsonDocument { ["_id"] = 4 });
        Assert.Equal(4, items.Count());
        items.Delete(2);
        items.Delete(3);

        Assert.Equal(2, items.Count());
        CollectionsTestDatabase.AssertValid(test.Database);
    }

    [Fact]
    public void Opening_after_a_crash_recounts_a_pending_count_even_when_the_log_holds_no_commit()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.InsertMany(Enumerable.Range(1, 3).Select(i => new BsonDocument { ["_id"] = i }));
        test.Reopen();
        MarkCountPendingWithoutCounter(test.Database, test.Collection("items"), storedCount: 100);

        // A clean close cuts the log to its header; a killed engine leaves the space it filled ahead.
        test.Reopen(whileClosed: () => AppendZeros(StorageEngine.WalPathFor(test.Path), 64 * 1024));

        Assert.True(test.Database.Storage.OpenedAfterUncleanClose);
        Assert.Equal(0, test.Database.Storage.RecoveredTransactions);
        Assert.Equal(1, test.Database.RecountedCollections);
        using var read = test.Database.Storage.BeginRead();
        var stats = read.ReadPage(test.Collection("items").Documents.Resolve(read)!.StatsPage).Span;
        Assert.False(CollectionStats.IsCountPending(stats));
        Assert.Equal(3, CollectionStats.ReadCount(stats));
    }

    [Fact]
    public void Opening_after_a_clean_close_leaves_the_counts_to_the_reads()
    {
        using var test = new CollectionsTestDatabase();
        test.Collection("items").Insert(new BsonDocument { ["_id"] = 1 });
        test.Reopen();
        MarkCountPendingWithoutCounter(test.Database, test.Collection("items"), storedCount: 100);

        test.Reopen();

        Assert.False(test.Database.Storage.OpenedAfterUncleanClose);
        Assert.Equal(0, test.Database.RecountedCollections);
        Assert.Equal(1, test.Collection("items").Count());
    }

    private static void AppendZeros(string path, int bytes)
    {
        using var log = File.OpenWrite(path);
        log.Seek(0, SeekOrigin.End);
        log.Write(new byte[bytes]);
    }

    private static void MarkCountPendingWithoutCounter(DocumentDatabase database, TransactionalBsonCollection items, long storedCount)
    {
        using var write = database.BeginWrite();
        var statsPage = items.Documents.Resolve(write)!.StatsPage;
        Assert.False(write.TryReadCounter(statsPage, out _), "a counter was set since open");
        var stats = write.WritePage(statsPage).Span;
        CollectionStats.WriteCount(stats, storedCount);
        CollectionStats.SetCountPending(stats, true);
        write.Commit();
    }
}
