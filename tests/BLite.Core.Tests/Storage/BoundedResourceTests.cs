using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

public class BoundedResourceTests
{
    [Fact]
    public void The_wal_and_memory_stay_bounded_under_sustained_writes_with_a_long_reader_open()
    {
        const int PageSize = 4096;
        const int Pages = 64;
        const long Budget = 32 * PageSize;
        const long WalThreshold = 32 * PageSize;
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = Durability.Normal,
            PageSize = PageSize,
            CacheBudgetBytes = Budget,
            WalCheckpointThresholdBytes = WalThreshold,
        });
        var pages = new uint[Pages];
        using (var tx = db.Engine.BeginWrite())
        {
            for (var i = 0; i < Pages; i++)
            {
                pages[i] = tx.AllocatePage();
                PageData.Stamp(tx, pages[i], -1);
            }

            tx.Commit();
        }

        using var longReader = db.Engine.BeginRead();
        var random = new Random(5);
        const int MaxPagesPerCommit = 5;
        long maxWal = 0;
        long maxMemory = 0;
        for (var commit = 0; commit < 3000; commit++)
        {
            using (var tx = db.Engine.BeginWrite())
            {
                for (var i = random.Next(1, MaxPagesPerCommit); i > 0; i--)
                {
                    PageData.Stamp(tx, pages[random.Next(Pages)], commit);
                }

                tx.Commit();
            }

            var stats = db.Engine.GetStatistics();
            maxWal = Math.Max(maxWal, stats.WalBytes);
            maxMemory = Math.Max(maxMemory, stats.CachedBytes + stats.PinnedBytes);
        }

        var finalStats = db.Engine.GetStatistics();
        Assert.True(finalStats.Checkpoints > 50, $"only {finalStats.Checkpoints} checkpoints");

        // Checkpoints run in the background; commits wait for one once the WAL reaches the
        // back-pressure size, so it never exceeds that by more than one transaction (plus the
        // header page it rewrites), and the file shrinks back after a stretch.
        const long MaxLog = StorageEngine.BackPressureFactor * WalThreshold;
        Assert.True(db.Engine.BackgroundCheckpoints > 50, $"only {db.Engine.BackgroundCheckpoints} background checkpoints");
        Assert.InRange(maxWal, 0, MaxLog + ((MaxPagesPerCommit + 1) * (PageSize + 32)));
        Assert.InRange(finalStats.WalFileBytes, 0, (2 * MaxLog) + ((MaxPagesPerCommit + 1) * (PageSize + 32)));

        // Memory: the cache budget, plus at most one pinned old version per page for the long reader.
        Assert.InRange(maxMemory, 0, Budget + ((Pages + 2) * PageSize));

        foreach (var page in pages)
        {
            Assert.Equal(-1, PageData.Read(longReader, page));
        }
    }

    [Fact]
    public void The_cache_stays_within_budget_on_a_database_ten_times_larger()
    {
        const int PageSize = 4096;
        const long Budget = 64 * PageSize;
        const int Pages = 640;
        using var db = new TestDatabase(new StorageOptions
        {
            Durability = Durability.Normal,
            PageSize = PageSize,
            CacheBudgetBytes = Budget,
            WalCheckpointThresholdBytes = 128 * PageSize,
        });
        var pages = new List<uint>();
        for (var batch = 0; batch < Pages / 64; batch++)
        {
            using var tx = db.Engine.BeginWrite();
            for (var i = 0; i < 64; i++)
            {
                var page = tx.AllocatePage();
                PageData.Stamp(tx, page, page);
                pages.Add(page);
            }

            tx.Commit();
            Assert.InRange(db.Engine.GetStatistics().CachedBytes, 0, Budget);
        }

        db.Engine.Checkpoint();
        Assert.True(new FileInfo(db.Path).Length >= 10 * Budget);
        for (var pass = 0; pass < 2; pass++)
        {
            using var read = db.Engine.BeginRead();
            foreach (var page in pages)
            {
                Assert.Equal(page, PageData.Read(read, page));
                Assert.InRange(db.Engine.GetStatistics().CachedBytes, 0, Budget);
            }
        }

        // Metadata does not grow with the database either: only cached pages are tracked.
        Assert.InRange(db.Engine.GetStatistics().TrackedPages, 0, (Budget / PageSize) + 1);
    }
}
