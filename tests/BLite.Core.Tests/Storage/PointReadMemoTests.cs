using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Diagnostics;
using BLite.Core.Tests.Collections;
using BLite.Core.Transactions;
using BLite.Testing;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// What a point read remembers between calls: the catalog resolved once per committed snapshot
/// (kept on the snapshot's reader registration), and statistics counted per thread.
/// </summary>
public sealed class PointReadMemoTests
{
    [Fact]
    public void Readers_of_one_snapshot_share_the_resolved_catalog_and_a_commit_gives_the_next_snapshot_its_own()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["n"] = 1 });
        var database = test.Database;

        var (first, memo) = database.Read(database, static (pages, db) => (db.Catalog.GetSnapshot(pages), pages.SharedSnapshot!.Memo));
        var second = database.Read(database, static (pages, db) => db.Catalog.GetSnapshot(pages));
        items.EnsureIndex("byN", "n");
        var (afterCommit, memoAfterCommit) = database.Read(database, static (pages, db) => (db.Catalog.GetSnapshot(pages), pages.SharedSnapshot!.Memo));

        Assert.NotNull(memo);
        Assert.Same(first, second);
        Assert.NotSame(first, afterCommit);
        Assert.NotSame(memo, memoAfterCommit);
        Assert.Empty(first.Find("items")!.Indexes);
        Assert.Single(afterCommit.Find("items")!.Indexes);
    }

    [Fact]
    public void An_open_reader_keeps_its_catalog_while_indexes_are_made_and_dropped_and_new_reads_see_each_change()
    {
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        items.Insert(new BsonDocument { ["_id"] = 1, ["n"] = 1 });
        var raw = test.Database.GetRawCollection("items");
        using var before = test.Database.BeginRead();
        Assert.Empty(raw.GetIndexes(before));

        items.EnsureIndex("byN", "n");
        var afterEnsure = test.Database.Read(raw, static (pages, collection) => collection.GetIndexes(pages).Count);
        var beforeAfterEnsure = raw.GetIndexes(before).Count;
        items.DropIndex("byN");
        var afterDrop = test.Database.Read(raw, static (pages, collection) => collection.GetIndexes(pages).Count);

        Assert.Equal(1, afterEnsure);
        Assert.Equal(0, beforeAfterEnsure);
        Assert.Equal(0, afterDrop);
        Assert.Empty(raw.GetIndexes(before));
    }

    [Fact]
    public void A_point_read_after_a_collection_is_dropped_and_made_again_reads_the_new_tree_and_an_older_reader_the_old_one()
    {
        using var test = new CollectionsTestDatabase();
        test.Collection("items").Insert(new BsonDocument { ["_id"] = 1, ["v"] = "old" });
        var raw = test.Database.GetRawCollection("items");
        Assert.Equal("old", ReadV(test.Database, raw));
        using var before = test.Database.BeginRead();

        using (var write = test.Database.BeginWrite())
        {
            Assert.True(test.Database.DropCollection(write, "items"));
            write.Commit();
        }

        var afterDrop = test.Database.Read(raw, static (pages, collection) => collection.TryFindById(pages, Key(1), out _));
        test.Collection("items").Insert(new BsonDocument { ["_id"] = 1, ["v"] = "new" });

        Assert.False(afterDrop);
        Assert.Equal("new", ReadV(test.Database, raw));
        Assert.True(raw.TryFindById(before, Key(1), out var old));
        Assert.Equal("old", BsonDocument.FromBytes(old.Span, test.Database.Fields)["v"].AsString);
    }

    [Fact]
    public void Documents_read_by_point_reads_on_many_threads_at_once_are_all_counted()
    {
        const int threads = 4;
        const int readsPerThread = 2_000;
        using var test = new CollectionsTestDatabase();
        var items = test.Collection("items");
        for (var i = 0; i < 10; i++)
        {
            items.Insert(new BsonDocument { ["_id"] = i, ["n"] = i });
        }

        var raw = test.Database.GetRawCollection("items");
        var readBefore = raw.DocumentsRead;
        var slots = new int[threads];
        var found = new int[threads];
        using var start = new Barrier(threads);
        var workers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            slots[t] = ThreadSlot.Current;
            start.SignalAndWait();
            for (var i = 0; i < readsPerThread; i++)
            {
                // Lent readers (one per thread, counting without an atomic), a miss now and
                // then (not counted), and every tenth read through a shared reader (counted
                // atomically).
                var key = Key(i % 12);
                var hit = i % 10 == 0
                    ? ReadShared(test.Database, raw, key)
                    : test.Database.Read((Collection: raw, Key: key), static (pages, s) => s.Collection.TryFindById(pages, s.Key, out _));
                found[t] += hit ? 1 : 0;
            }
        })).ToList();
        workers.ForEach(worker => worker.Start());
        workers.ForEach(worker => worker.Join());

        Assert.Equal(threads, slots.Distinct().Count());
        Assert.All(found, count => Assert.InRange(count, 1, readsPerThread - 1));
        Assert.Equal(readBefore + found.Sum(), raw.DocumentsRead);
    }

    [Fact]
    public void A_nested_point_read_gets_a_reader_of_its_own_and_the_thread_keeps_one_spare()
    {
        using var test = new CollectionsTestDatabase();
        test.Collection("items").Insert(new BsonDocument { ["_id"] = 1, ["v"] = "x" });
        var database = test.Database;

        var (outer, inner, outerAfterInner) = database.Read(database, static (pages, db) =>
        {
            var nested = db.Read(0, static (nestedPages, _) => nestedPages);
            return (pages, nested, db.GetRawCollection("items").TryFindById(pages, Key(1), out _));
        });
        var next = database.Read(0, static (pages, _) => pages);

        Assert.NotSame(outer, inner);
        Assert.True(outerAfterInner);
        Assert.Same(outer, next);
        Assert.Equal(0, database.Storage.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_lent_reader_handed_to_another_thread_is_refused_by_a_point_read_though_its_catalog_is_already_resolved()
    {
        using var test = new CollectionsTestDatabase();
        test.Collection("items").Insert(new BsonDocument { ["_id"] = 1, ["v"] = "x" });
        var raw = test.Database.GetRawCollection("items");

        var (foundHere, memo, errors) = test.Database.Read(raw, static (pages, collection) =>
        {
            var found = collection.TryReadById(pages, Key(1), 0, static (bytes, _) => bytes.Length, out _);
            var caught = new List<Exception?>();
            var thread = new Thread(() =>
            {
                caught.Add(Record.Exception(() => collection.TryReadById(pages, Key(1), 0, static (bytes, _) => bytes.Length, out _)));
                caught.Add(Record.Exception(() => collection.ContainsId(pages, Key(1))));
            });
            thread.Start();
            thread.Join();
            return (found, pages.SharedSnapshot!.Memo, caught);
        });

        Assert.True(foundHere);
        Assert.NotNull(memo);
        Assert.Equal(2, errors.Count);
        Assert.All(errors, error => Assert.IsType<InvalidOperationException>(error));
    }


    private static string ReadV(DocumentDatabase database, RawCollection raw) =>
        database.Read((Collection: raw, Fields: database.Fields), static (pages, s) =>
            s.Collection.TryFindById(pages, Key(1), out var bytes) ? BsonDocument.FromBytes(bytes.Span, s.Fields)["v"].AsString : "missing");

    private static bool ReadShared(DocumentDatabase database, RawCollection raw, byte[] key)
    {
        using ReadTransaction read = database.BeginRead();
        return raw.TryFindById(read, key, out _);
    }

    private static byte[] Key(int id) => IndexKeys.EncodeId(id);
}
