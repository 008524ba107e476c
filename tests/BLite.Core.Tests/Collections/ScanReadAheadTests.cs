using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;
using BLite.Core.Tests.Storage;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// A forward scan past a full cache reads runs of consecutive file pages with one device read,
/// the next run on a thread-pool thread (<see cref="PageReadAhead"/>). Documents inserted in id
/// order put the primary leaves in file order, so the scans here are served from those windows:
/// every page must still be checked before it is served, a window must never outlive the file
/// content it was read from (a checkpoint writing the file under a running scan), and nothing
/// read ahead may enter or disturb the cache.
/// </summary>
public sealed class ScanReadAheadTests
{
    private const int PageSize = 4096;
    private const long Budget = 16 * PageSize;
    private const int Documents = 3000;

    private static string Status(int id) => id % 4 == 1 ? "shipped" : "other";

    private static string Payload(int id, int version = 0) => new((char)('a' + ((id + version) % 26)), 300 + (id * 7919 % 200));

    private static StorageOptions Options => new() { Durability = Durability.Normal, PageSize = PageSize, CacheBudgetBytes = Budget };

    private static void Populate(TransactionalBsonCollection orders, bool indexed = true)
    {
        if (indexed)
        {
            orders.EnsureIndex("byStatus", "status");
        }

        foreach (var batch in Enumerable.Range(0, Documents).Chunk(250))
        {
            orders.InsertMany(batch.Select(i => new BsonDocument { ["_id"] = i, ["status"] = Status(i), ["payload"] = Payload(i) }));
        }
    }

    // Reopened, so the cache starts empty and the scans below fill it, then read past it.
    private static CollectionsTestDatabase Populated(out TransactionalBsonCollection orders)
    {
        var test = new CollectionsTestDatabase(options: Options);
        Populate(test.Collection("orders"));
        test.Database.Checkpoint();
        test.Reopen();
        orders = test.Collection("orders");
        return test;
    }

    private static List<int> Checked(IEnumerable<BsonDocument> documents, int version = 0) => Checked(documents, _ => version);

    private static List<int> Checked(IEnumerable<BsonDocument> documents, Func<int, int> version)
    {
        var ids = new List<int>();
        foreach (var document in documents)
        {
            var id = document["_id"].AsInt32;
            Assert.Equal(Status(id), document["status"].AsString);
            Assert.Equal(Payload(id, version(id)), document["payload"].AsString);
            ids.Add(id);
        }

        return ids;
    }

    [Fact]
    public void A_forward_scan_past_a_full_cache_is_served_from_read_ahead_windows_and_returns_every_document()
    {
        using var test = Populated(out var orders);
        var storage = test.Database.Storage;

        Assert.Equal(Enumerable.Range(0, Documents).ToList(), Checked(orders.FindAll()));
        var readAhead = storage.PagesReadAhead;
        var leaves = new FileInfo(test.Path).Length / PageSize;
        Assert.True(readAhead > leaves / 2, $"{readAhead} of about {leaves} pages came from read-ahead windows");

        var shipped = Enumerable.Range(0, Documents).Where(i => Status(i) == "shipped").ToList();
        Assert.Contains("IXSCAN byStatus", orders.Explain(QueryFilter.Eq("status", "shipped")));
        Assert.Equal(shipped, Checked(orders.Find(QueryFilter.Eq("status", "shipped"))));
        Assert.True(storage.PagesReadAhead > readAhead, "the documents behind the index were fetched through read-ahead windows too");

        // Backwards there is no forward run: every page is read alone, and the result is the same.
        Assert.Equal(Enumerable.Range(0, Documents).Reverse().ToList(), Checked(orders.FindAll(descending: true)));
    }

    [Fact]
    public void Read_ahead_leaves_the_cache_as_it_was()
    {
        using var test = Populated(out var orders);
        var storage = test.Database.Storage;
        Assert.Equal(Documents, Checked(orders.FindAll()).Count);
        var cached = storage.GetStatistics().CachedBytes;
        Assert.InRange(cached, Budget - PageSize, Budget);

        // The first documents' leaves entered the cache while it had room; a second scan must
        // find them there (hits, not reads), however many pages it reads ahead past them.
        var hitsBefore = storage.CacheHits;
        var readAheadBefore = storage.PagesReadAhead;
        Assert.Equal(Documents, Checked(orders.FindAll()).Count);

        Assert.True(storage.PagesReadAhead > readAheadBefore, "the second scan read ahead again");
        Assert.True(storage.CacheHits - hitsBefore >= (cached / PageSize) - 4, $"{storage.CacheHits - hitsBefore} cache hits for {cached / PageSize} cached pages");
        Assert.Equal(cached, storage.GetStatistics().CachedBytes);
    }

    [Fact]
    public void A_scan_reading_ahead_keeps_its_snapshot_while_a_writer_rewrites_every_document_and_checkpoints()
    {
        using var test = Populated(out var orders);
        var storage = test.Database.Storage;
        var seen = new List<int>();
        using (var read = test.Database.BeginRead())
        {
            using var scan = orders.FindAll(read).GetEnumerator();
            for (var i = 0; i < Documents / 3 && scan.MoveNext(); i++)
            {
                seen.AddRange(Checked([scan.Current]));
            }

            var readAheadBefore = storage.PagesReadAhead;
            Assert.True(readAheadBefore > 0, "the scan was reading ahead before the writer started");

            // Every leaf changes, and the checkpoint writes the new versions into the file the
            // scan's windows were read from; the old versions the scan still needs are pinned.
            UpdateDocuments(test, orders, Enumerable.Range(0, Documents), version: 1);
            test.Database.Checkpoint();
            while (scan.MoveNext())
            {
                seen.AddRange(Checked([scan.Current]));
            }
        }

        Assert.Equal(Enumerable.Range(0, Documents).ToList(), seen);
        Assert.Equal(Enumerable.Range(0, Documents).ToList(), Checked(orders.FindAll(), version: 1));
    }

    [Fact]
    public async Task Scans_reading_ahead_beside_a_writer_thread_each_see_one_whole_version()
    {
        using var test = Populated(out var orders);
        var storage = test.Database.Storage;
        const int Versions = 4;
        using var scanHalfway = new SemaphoreSlim(0);
        using var versionWritten = new SemaphoreSlim(0);

        // Each version rewrites every document in one transaction and is checkpointed into the
        // file while a scan of the version before it is halfway through.
        var writer = Task.Run(() =>
        {
            for (var version = 1; version <= Versions; version++)
            {
                Assert.True(scanHalfway.Wait(TimeSpan.FromSeconds(60)), "the scan did not reach its halfway point");
                UpdateDocuments(test, orders, Enumerable.Range(0, Documents), version);
                test.Database.Checkpoint();
                versionWritten.Release();
            }
        });

        for (var version = 0; version <= Versions; version++)
        {
            var readAheadBefore = storage.PagesReadAhead;
            var seen = new List<int>();
            using (var read = test.Database.BeginRead())
            {
                using var scan = orders.FindAll(read).GetEnumerator();
                while (scan.MoveNext())
                {
                    seen.AddRange(Checked([scan.Current], version));
                    if (seen.Count == Documents / 2 && version < Versions)
                    {
                        scanHalfway.Release();
                        Assert.True(versionWritten.Wait(TimeSpan.FromSeconds(60)), "the writer did not finish its version");
                    }
                }
            }

            Assert.Equal(Enumerable.Range(0, Documents).ToList(), seen);
            Assert.True(storage.PagesReadAhead > readAheadBefore, $"the scan of version {version} read ahead");
        }

        await writer;
    }

    [Fact]
    public void Window_bytes_read_before_a_checkpoint_are_never_served_after_it()
    {
        using var test = Populated(out var orders);
        var storage = test.Database.Storage;

        // Blocks of ten documents, one in five: their leaves get new versions in the log, while
        // the leaves between them stay in the file, so the scan below reads runs of file pages
        // ahead, and its windows take the old bytes of the changed leaves with them.
        static int Version(int id) => id / 10 % 5 == 0 ? 1 : 0;
        UpdateDocuments(test, orders, Enumerable.Range(0, Documents).Where(id => Version(id) == 1), version: 1);
        var seen = new List<int>();
        using (var read = test.Database.BeginRead())
        {
            using var scan = orders.FindAll(read).GetEnumerator();
            for (var i = 0; i < Documents / 3 && scan.MoveNext(); i++)
            {
                seen.AddRange(Checked([scan.Current], Version));
            }

            Assert.True(storage.PagesReadAhead > 0, "the scan was reading ahead before the checkpoint");

            // The checkpoint moves the new versions into the file, so this snapshot now reads the
            // changed leaves from there: from a window read after the checkpoint, never from one
            // read before it.
            test.Database.Checkpoint();
            var readAheadAtCheckpoint = storage.PagesReadAhead;
            while (scan.MoveNext())
            {
                seen.AddRange(Checked([scan.Current], Version));
            }

            Assert.True(storage.PagesReadAhead > readAheadAtCheckpoint, "the scan went on reading ahead after the checkpoint");
        }

        Assert.Equal(Enumerable.Range(0, Documents).ToList(), seen);
    }

    private static void UpdateDocuments(CollectionsTestDatabase test, TransactionalBsonCollection orders, IEnumerable<int> ids, int version)
    {
        foreach (var batch in ids.Chunk(500))
        {
            using var write = test.Database.BeginWrite();
            foreach (var id in batch)
            {
                Assert.True(orders.Update(write, new BsonDocument { ["_id"] = id, ["status"] = Status(id), ["payload"] = Payload(id, version) }));
            }

            write.Commit();
        }
    }

    [Fact]
    public void A_damaged_page_met_through_read_ahead_is_reported_naming_it_and_never_returned()
    {
        using var directory = new TempDirectory();
        var path = Path.Combine(directory.Path, "orders.blite");
        uint damaged;
        using (var database = DocumentDatabase.Open(path, Options))
        {
            // No secondary index: nearly every page is a primary leaf, in id order.
            Populate(database.GetCollection("orders"), indexed: false);
            database.Checkpoint();
            // A page well into the forward run, so a background read brings it in.
            damaged = (uint)(new FileInfo(path).Length / PageSize * 2 / 3);
        }

        FileBytes.Flip(path, (damaged * (long)PageSize) + 200);
        using (var database = DocumentDatabase.Open(path, Options))
        {
            var orders = database.GetCollection("orders");
            var returned = 0;
            var exception = Assert.Throws<BLiteCorruptionException>(() =>
            {
                using var read = database.BeginRead();
                foreach (var document in orders.FindAll(read))
                {
                    Checked([document]);
                    returned++;
                }
            });

            Assert.Equal(damaged, exception.PageId);
            Assert.Equal(path, exception.FilePath);
            Assert.Contains($"page {damaged}", exception.Message, StringComparison.Ordinal);
            Assert.InRange(returned, 1, Documents - 1);
            Assert.True(database.Storage.PagesReadAhead > 0, "the scan reached the damage through read-ahead windows");
        }

        // Repaired, the same scan reads the whole collection.
        FileBytes.Flip(path, (damaged * (long)PageSize) + 200);
        using (var database = DocumentDatabase.Open(path, Options))
        {
            Assert.Equal(Enumerable.Range(0, Documents).ToList(), Checked(database.GetCollection("orders").FindAll()));
            CollectionsTestDatabase.AssertValid(database);
        }
    }
}
