using BLite.Bson;
using BLite.Tests.Model;

namespace BLite.Tests.ChangeFeed;

public sealed class BackupTests : IDisposable
{
    private const int Accounts = 400;
    private const long OpeningBalance = 1_000;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Every_backup_taken_while_transfers_commit_holds_the_exact_total_and_writers_keep_committing()
    {
        using var db = new FeedShopContext(new DocumentDbContextOptions { Path = _directory.File(), Durability = Durability.Normal });
        var accounts = db.Database.GetCollection("accounts");
        accounts.InsertMany(Enumerable.Range(0, Accounts).Select(i => new BsonDocument { ["_id"] = i, ["balance"] = OpeningBalance, ["pad"] = new string('b', 400) }));
        long transfers = 0;
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(() =>
        {
            var random = new Random(5);
            while (!stop.IsCancellationRequested)
            {
                var from = random.Next(Accounts);
                var to = (from + 1 + random.Next(Accounts - 1)) % Accounts;
                var amount = random.Next(1, 50);
                using var transaction = db.BeginTransaction();
                var a = accounts.FindById(from)!;
                var b = accounts.FindById(to)!;
                a["balance"] = a["balance"].AsInt64 - amount;
                b["balance"] = b["balance"].AsInt64 + amount;
                accounts.Update(a);
                accounts.Update(b);
                transaction.Commit();
                Interlocked.Increment(ref transfers);
            }
        });

        var backups = new List<string>();
        var committedDuringBackups = 0L;
        for (var i = 0; i < 3; i++)
        {
            var path = _directory.File($"backup-{i}.blite");
            var halfway = false;
            var progress = new Inline<BackupProgress>(p =>
            {
                if (!halfway && p.DocumentsCopied == p.TotalDocuments / 2)
                {
                    // Halfway through the copy, transfers must still commit: the backup holds no lock.
                    halfway = true;
                    var before = Interlocked.Read(ref transfers);
                    SpinWait.SpinUntil(() => Interlocked.Read(ref transfers) >= before + 3 || writer.IsCompleted, TimeSpan.FromSeconds(30));
                    committedDuringBackups += Interlocked.Read(ref transfers) - before;
                }
            });
            db.Database.Backup(path, progress);
            Assert.True(halfway);
            backups.Add(path);
        }

        await stop.CancelAsync();
        await writer;

        Assert.True(committedDuringBackups >= 9, $"only {committedDuringBackups} transfers committed while backups ran");
        foreach (var path in backups)
        {
            using var restored = new FeedShopContext(new DocumentDbContextOptions { Path = path, ReadOnly = true });
            var total = restored.Database.GetCollection("accounts").FindAll().Sum(d => d["balance"].AsInt64);
            Assert.Equal(Accounts * OpeningBalance, total);
            Assert.True(restored.Database.Verify().IsValid);
            Assert.False(File.Exists(path + ".partial-backup"));
        }
    }

    [Fact]
    public async Task Backup_carries_the_change_journal_so_a_watcher_resumes_against_the_restored_copy()
    {
        var source = _directory.File();
        var copy = _directory.File("copy.blite");
        ChangeFeedToken token;
        using (var db = new FeedShopContext(new DocumentDbContextOptions { Path = source, Durability = Durability.Normal }))
        {
            for (var i = 1; i <= 10; i++)
            {
                db.IntItems.Insert(new IntItem { Id = i, Name = "before " + i });
            }

            token = (await ChangeStreams.Take(db.IntItems.Watch(new WatchOptions { StartAt = ChangeFeedStart.Oldest }), 4))[^1].Token;
            db.Database.Backup(copy);
            db.IntItems.Insert(new IntItem { Id = 11, Name = "after the backup" });
        }

        using var restored = new FeedShopContext(new DocumentDbContextOptions { Path = copy, Durability = Durability.Normal });
        var resumed = await ChangeStreams.Take(restored.IntItems.Watch(new WatchOptions { ResumeAfter = token }), 6);
        restored.IntItems.Insert(new IntItem { Id = 12, Name = "written to the copy" });
        var next = await ChangeStreams.Take(restored.IntItems.Watch(new WatchOptions { ResumeAfter = resumed[^1].Token }), 1);

        Assert.Equal([5, 6, 7, 8, 9, 10], resumed.Select(e => e.Id));
        Assert.Equal(12, next.Single().Id);
        Assert.Equal(11UL, next.Single().Sequence);
        Assert.Throws<BLiteException>(() => restored.IntItems.Watch(new WatchOptions { ResumeAfter = ChangeFeedToken.Parse("12:end") }));
    }

    [Fact]
    public void Backup_carries_the_id_sequence_so_ids_of_deleted_documents_are_never_handed_out_again()
    {
        var source = _directory.File();
        var copy = _directory.File("copy.blite");
        using (var db = new FeedShopContext(new DocumentDbContextOptions { Path = source, Durability = Durability.Normal }))
        {
            var items = Enumerable.Range(0, 5).Select(i => new IntItem { Name = "auto " + i }).ToList();
            db.IntItems.InsertMany(items);
            Assert.Equal([1, 2, 3, 4, 5], items.Select(i => i.Id));

            // The highest ids are gone: only the sequence still remembers 5 was handed out.
            Assert.True(db.IntItems.Delete(5));
            Assert.True(db.IntItems.Delete(4));
            db.Database.Backup(copy);
        }

        using var restored = new FeedShopContext(new DocumentDbContextOptions { Path = copy, Durability = Durability.Normal });
        var next = new IntItem { Name = "after the restore" };
        restored.IntItems.Insert(next);

        Assert.Equal(6, next.Id);
        Assert.Equal([1, 2, 3, 6], restored.IntItems.FindAll().Select(i => i.Id).Order());
    }

    /// <summary>Reports on the reporting thread (Progress&lt;T&gt; would post to the thread pool).</summary>
    private sealed class Inline<T>(Action<T> report) : IProgress<T>
    {
        public void Report(T value) => report(value);
    }
}
