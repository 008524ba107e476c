using System.Buffers.Binary;
using BLite.Core.BTrees;
using BLite.Core.Storage;
using BLite.Core.Tests.BTrees;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The point index (StorageEngine.PointIndex.cs): a lookup it answers gives exactly what a
/// descent at the reader's snapshot would, through commits, splits, merges, checkpoints, eviction
/// and concurrent writers, and it never hands out an image the cache did not verify.
/// </summary>
public sealed class PointIndexTests
{
    // Values of 600 bytes on 4 KiB pages: about six keys per leaf, so a few hundred keys make a
    // tree of three levels whose leaves split and merge often.
    private const int ValueLength = 600;

    private static StorageOptions Options(long cachePages = 4096) => new()
    {
        Durability = Durability.Normal,
        PageSize = 4096,
        CacheBudgetBytes = cachePages * 4096,
        WalCheckpointThresholdBytes = 1 << 30,
    };

    [Fact]
    public void A_repeated_lookup_is_answered_by_the_index_with_the_value_a_descent_finds_for_every_read_kind()
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;
        var tree = CreateTree(engine, 300, version: 1);

        // First pass: descents that cache the pages; second: descents through the memo, which fill
        // the index; third: answered by the index.
        for (var pass = 0; pass < 2; pass++)
        {
            AssertAll(engine, tree, Enumerable.Range(0, 300), version: 1);
        }

        var hitsBefore = IndexHits(engine);
        AssertAll(engine, tree, Enumerable.Range(0, 300), version: 1);
        Assert.Equal(300, IndexHits(engine) - hitsBefore);

        // The value as memory and the presence test take the same entries.
        hitsBefore = IndexHits(engine);
        using (var read = engine.BeginRead())
        {
            for (var i = 0; i < 300; i++)
            {
                Assert.True(tree.TryGet(read, TestKeys.Int(i), out var value));
                Assert.Equal(1, ValueVersion(value.Span, i));
                Assert.True(tree.ContainsKey(read, TestKeys.Int(i)));
            }

            Assert.False(tree.ContainsKey(read, TestKeys.Int(300)));
        }

        Assert.Equal(600, IndexHits(engine) - hitsBefore);
        Assert.True(engine.PointIndexSlots >= 256, $"{engine.PointIndexSlots} slots");
    }

    [Fact]
    public void A_commit_gives_new_readers_the_new_value_while_an_open_reader_keeps_reading_its_own_through_the_index()
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;
        var tree = CreateTree(engine, 200, version: 1);
        using var old = engine.BeginRead();
        WarmUp(old, tree, 200);

        // Every leaf gets a new version; half the keys a new value.
        CommitValues(engine, tree, Enumerable.Range(0, 200 / 2).Select(i => i * 2), version: 2);

        // The entries made before the commit still hold for the old snapshot.
        var oldHitsBefore = old.UncountedPointHits;
        for (var i = 0; i < 200; i++)
        {
            Assert.Equal(1, Read(old, tree, i));
        }

        Assert.Equal(200, old.UncountedPointHits - oldHitsBefore);

        // New readers replace them with their own; the old reader, taking turns with them, then
        // descends to its own versions, and does not take the entries back.
        var hitsBefore = IndexHits(engine);
        for (var round = 0; round < 3; round++)
        {
            for (var i = 0; i < 200; i++)
            {
                Assert.Equal(i % 2 == 0 ? 2 : 1, engine.Read((tree, i), static (read, s) => Read(read, s.tree, s.i)));
                Assert.Equal(1, Read(old, tree, i));
            }
        }

        Assert.True(IndexHits(engine) - hitsBefore >= 200, $"the new readers' lookups were not served by the index ({IndexHits(engine) - hitsBefore})");
    }

    [Fact]
    public void Keys_moved_by_splits_are_found_where_each_snapshot_has_them()
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;

        // Every third key first, then the rest: the second commit splits nearly every leaf.
        var tree = CreateTree(engine, Enumerable.Range(0, 600).Where(i => i % 3 == 0), version: 1);
        using var old = engine.BeginRead();
        WarmUp(old, tree, Enumerable.Range(0, 600).Where(i => i % 3 == 0));
        var pagesBefore = engine.Verify().PageCount;

        using (var write = engine.BeginWrite())
        {
            foreach (var i in Enumerable.Range(0, 600).Where(i => i % 3 != 0))
            {
                Assert.True(tree.Insert(write, TestKeys.Int(i), Value(i, 2)));
            }

            write.Commit();
        }

        Assert.True(engine.Verify().PageCount > pagesBefore + 50, "the inserts did not split the leaves");
        var hitsBefore = IndexHits(engine);
        for (var pass = 0; pass < 3; pass++)
        {
            AssertAll(engine, tree, Enumerable.Range(0, 600), i => i % 3 == 0 ? 1 : 2);
            foreach (var i in Enumerable.Range(0, 600))
            {
                Assert.Equal(i % 3 == 0 ? 1 : 0, Read(old, tree, i));
            }
        }

        Assert.True(IndexHits(engine) > hitsBefore, "no lookup after the splits was served by the index");
    }

    /// <summary>
    /// A merge frees the right-hand leaf without writing it: its last image stays the page's current
    /// version, still holding the keys that moved left. Once one of them is deleted from the tree, an
    /// index that checked only the leaf's version would still find it there.
    /// </summary>
    [Fact]
    public void A_key_deleted_after_a_merge_moved_it_is_absent_though_the_freed_leaf_still_holds_it()
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;
        const int count = 400;
        var tree = CreateTree(engine, count, version: 1);
        var live = new SortedSet<int>(Enumerable.Range(0, count));
        for (var pass = 0; pass < 2; pass++)
        {
            AssertAll(engine, tree, live, version: 1);
        }

        // Deleting from the low end, one key per commit, keeps emptying the leftmost leaf, which
        // then takes its right sibling's keys and frees that sibling unchanged. Only the deleted
        // key and the smallest left are looked up between deletions, so the entries the first
        // passes made for the sibling's keys are still there when those keys are deleted.
        var hitsBefore = IndexHits(engine);
        for (var i = 0; i < count; i++)
        {
            using (var write = engine.BeginWrite())
            {
                Assert.True(tree.Delete(write, TestKeys.Int(i)));
                write.Commit();
            }

            live.Remove(i);
            Assert.False(engine.Read((tree, i), static (read, s) => s.tree.ContainsKey(read, TestKeys.Int(s.i))));
            Assert.False(engine.Read((tree, i), static (read, s) => s.tree.TryGet(read, TestKeys.Int(s.i), out _)));
            if (live.Count > 0)
            {
                Assert.Equal(1, engine.Read((tree, live.Min), static (read, s) => Read(read, s.tree, s.Min)));
            }

            if (i == count / 2)
            {
                Assert.True(engine.Verify().FreePageCount > 10, "the deletions did not merge leaves");
                AssertAll(engine, tree, live, version: 1);
            }
        }

        Assert.True(IndexHits(engine) > hitsBefore, "no lookup between the deletions was served by the index");
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Readers_older_and_newer_than_a_checkpoint_read_their_own_values(bool oldReaderFirst)
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;
        var tree = CreateTree(engine, 200, version: 1);
        using var old = engine.BeginRead();
        WarmUp(old, tree, 200);
        CommitValues(engine, tree, Enumerable.Range(0, 200), version: 2);

        AssertAll(engine, tree, Enumerable.Range(0, 200), version: 2);
        var checkpoints = engine.GetStatistics().Checkpoints;
        engine.Checkpoint();
        Assert.True(engine.GetStatistics().Checkpoints > checkpoints, "the checkpoint did not run");

        for (var round = 0; round < 3; round++)
        {
            for (var i = 0; i < 200; i++)
            {
                if (oldReaderFirst)
                {
                    Assert.Equal(1, Read(old, tree, i));
                }

                Assert.Equal(2, engine.Read((tree, i), static (read, s) => Read(read, s.tree, s.i)));
                Assert.Equal(1, Read(old, tree, i));
            }
        }
    }

    [Fact]
    public void Entries_whose_leaves_were_evicted_read_back_the_right_values_and_keep_no_image()
    {
        // Eight pages of cache for a tree of about seventy: every pass evicts what the last held.
        using var db = new TestDatabase(Options(cachePages: 8));
        var engine = db.Engine;
        var tree = CreateTree(engine, 400, version: 1);
        using var old = engine.BeginRead();
        CommitValues(engine, tree, Enumerable.Range(0, 400 / 4).Select(i => i * 4), version: 2);

        var missesBefore = engine.CacheMisses;
        var hitsBefore = IndexHits(engine) + old.UncountedPointHits;
        for (var round = 0; round < 2; round++)
        {
            for (var i = 0; i < 400; i++)
            {
                // Three lookups in a row: the leaf is read and cached, then memoized, then indexed.
                for (var again = 0; again < 3; again++)
                {
                    Assert.Equal(1, Read(old, tree, i));
                    Assert.Equal(i % 4 == 0 ? 2 : 1, engine.Read((tree, i), static (read, s) => Read(read, s.tree, s.i)));
                }
            }
        }

        Assert.True(engine.CacheMisses > missesBefore + 100, "the leaves were not evicted and read back");
        Assert.True(IndexHits(engine) + old.UncountedPointHits > hitsBefore, "no lookup was served by the index");
        Assert.True(engine.GetStatistics().CachedBytes <= 8 * 4096, "entries kept images beyond the cache budget");
    }

    [Fact]
    public async Task Readers_racing_commits_and_checkpoints_see_one_consistent_total_per_snapshot()
    {
        const int accounts = 120;
        const int initial = 1000;
        using var db = new TestDatabase(Options(cachePages: 64));
        var engine = db.Engine;
        BTree tree;
        using (var write = engine.BeginWrite())
        {
            tree = BTree.Create(write);
            for (var i = 0; i < accounts; i++)
            {
                tree.Insert(write, TestKeys.Int(i), Balance(initial));
            }

            write.Commit();
        }

        var writing = 1;
        var transfers = 0;
        var writer = OnOwnThread(() =>
        {
            try
            {
                var random = new Random(11);
                for (var t = 1; t <= 400; t++)
                {
                    using var write = engine.BeginWrite();
                    var from = random.Next(accounts);
                    var to = random.Next(accounts);
                    var amount = random.Next(1, 50);
                    tree.Upsert(write, TestKeys.Int(from), Balance(BalanceOf(write, tree, from) - amount));
                    tree.Upsert(write, TestKeys.Int(to), Balance(BalanceOf(write, tree, to) + amount));

                    // A key added and removed now and then splits and merges leaves under the readers.
                    if (t % 10 == 0)
                    {
                        tree.Insert(write, TestKeys.Int(accounts + t), Balance(0));
                    }
                    else if (t % 10 == 5 && t > 10)
                    {
                        tree.Delete(write, TestKeys.Int(accounts + t - 5));
                    }

                    write.Commit();
                    transfers = t;
                    if (t % 50 == 0)
                    {
                        engine.Checkpoint();
                    }
                }
            }
            finally
            {
                Volatile.Write(ref writing, 0);
            }
        });

        var reads = 0L;
        var readers = Enumerable.Range(0, 2).Select(_ => OnOwnThread(() =>
        {
            do
            {
                var (total, again) = engine.Read(tree, static (read, tree) => (Total(read, tree, accounts), Total(read, tree, accounts)));
                Assert.Equal(accounts * initial, total);
                Assert.Equal(total, again);
                Interlocked.Increment(ref reads);
            }

            // A few passes past the last commit even when the writer ran ahead of the readers (a
            // loaded machine): a key's lookups fill its entry on the second and use it on the third.
            while (Volatile.Read(ref writing) == 1 || Interlocked.Read(ref reads) < 10);
        })).ToArray();

        var hitsBefore = IndexHits(engine);
        await Task.WhenAll([writer, .. readers]);

        Assert.Equal(400, transfers);
        Assert.True(reads > 0, "no reader ran");
        Assert.True(IndexHits(engine) > hitsBefore, "no lookup was served by the index");
        Assert.Equal(accounts * initial, engine.Read(tree, static (read, tree) => Total(read, tree, accounts)));
    }

    [Fact]
    public void A_leaf_damaged_on_the_device_after_its_entry_was_made_is_refused_once_evicted()
    {
        var storage = new FaultDatabase();
        using var engine = storage.Open(Options(cachePages: 8));
        var tree = CreateTree(engine, 300, version: 1);
        engine.Checkpoint();

        var key = TestKeys.Int(150);
        uint leaf;
        using (var read = engine.BeginRead())
        {
            Span<uint> path = stackalloc uint[BTree.MaxDepth];
            Span<int> children = stackalloc int[BTree.MaxDepth];
            BTree.Seek(read, tree.RootPageId, BTree.SeekTarget.Key, key, path, children, out var leafLevel);
            leaf = path[leafLevel];
        }

        var hitsBefore = IndexHits(engine);
        for (var again = 0; again < 3; again++)
        {
            Assert.Equal(1, engine.Read(tree, static (read, tree) => Read(read, tree, 150)));
        }

        Assert.True(IndexHits(engine) > hitsBefore, "the lookup was not served by the index");

        storage.File.Write((leaf * 4096L) + 100, [0x5A, 0x5A]);
        AssertAll(engine, tree, Enumerable.Range(0, 100), version: 1);

        var exception = Assert.Throws<BLiteCorruptionException>(() => engine.Read(tree, static (read, tree) => Read(read, tree, 150)));
        Assert.Equal(leaf, exception.PageId);
    }

    [Fact]
    public void A_value_in_an_overflow_chain_is_read_whole_through_the_index()
    {
        using var db = new TestDatabase(Options());
        var engine = db.Engine;
        BTree tree;
        using (var write = engine.BeginWrite())
        {
            tree = BTree.Create(write);
            for (var i = 0; i < 20; i++)
            {
                tree.Insert(write, TestKeys.Int(i), LargeValue(i));
            }

            write.Commit();
        }

        var hitsBefore = IndexHits(engine);
        for (var pass = 0; pass < 3; pass++)
        {
            for (var i = 0; i < 20; i++)
            {
                Assert.True(engine.Read((tree, i), static (read, s) =>
                    s.tree.TryRead(read, TestKeys.Int(s.i), s.i, static (value, key) => value.SequenceEqual(LargeValue(key)), out var same) && same));
            }
        }

        Assert.True(IndexHits(engine) - hitsBefore >= 20, $"the overflow values were not read through the index ({IndexHits(engine) - hitsBefore})");

        static byte[] LargeValue(int key)
        {
            // Three pages' worth: far past the largest inline cell of a 4 KiB page.
            var value = new byte[3 * 4096];
            for (var b = 0; b < value.Length; b++)
            {
                value[b] = (byte)((b * 31) + key);
            }

            return value;
        }
    }

    private static BTree CreateTree(StorageEngine engine, int count, int version) => CreateTree(engine, Enumerable.Range(0, count), version);

    private static BTree CreateTree(StorageEngine engine, IEnumerable<int> keys, int version)
    {
        using var write = engine.BeginWrite();
        var tree = BTree.Create(write);
        foreach (var i in keys)
        {
            Assert.True(tree.Insert(write, TestKeys.Int(i), Value(i, version)));
        }

        write.Commit();
        return tree;
    }

    private static void CommitValues(StorageEngine engine, BTree tree, IEnumerable<int> keys, int version)
    {
        using var write = engine.BeginWrite();
        foreach (var i in keys)
        {
            tree.Upsert(write, TestKeys.Int(i), Value(i, version));
        }

        write.Commit();
    }

    private static void WarmUp(IPageReader read, BTree tree, int count) => WarmUp(read, tree, Enumerable.Range(0, count));

    private static void WarmUp(IPageReader read, BTree tree, IEnumerable<int> keys)
    {
        for (var pass = 0; pass < 2; pass++)
        {
            foreach (var i in keys)
            {
                Assert.Equal(1, Read(read, tree, i));
            }
        }
    }

    private static void AssertAll(StorageEngine engine, BTree tree, IEnumerable<int> keys, int version) => AssertAll(engine, tree, keys, _ => version);

    private static void AssertAll(StorageEngine engine, BTree tree, IEnumerable<int> keys, Func<int, int> version)
    {
        foreach (var i in keys)
        {
            Assert.Equal(version(i), engine.Read((tree, i), static (read, s) => Read(read, s.tree, s.i)));
        }
    }

    private static long IndexHits(StorageEngine engine) => engine.PointIndexHits;

    /// <summary>The version stamped in the value of key <paramref name="i"/> through the span read every lookup by id takes; 0 when absent.</summary>
    private static int Read(IPageReader read, BTree tree, int i) =>
        tree.TryRead(read, TestKeys.Int(i), i, static (value, key) => ValueVersion(value, key), out var version) ? version : 0;

    /// <summary>A value naming its key and version, padded with a pattern of both so a torn or misplaced value shows.</summary>
    private static byte[] Value(int key, int version)
    {
        var value = new byte[ValueLength];
        BinaryPrimitives.WriteInt32LittleEndian(value, key);
        BinaryPrimitives.WriteInt32LittleEndian(value.AsSpan(4), version);
        value[^1] = (byte)(key * 7 + version);
        return value;
    }

    private static int ValueVersion(ReadOnlySpan<byte> value, int key)
    {
        Assert.Equal(ValueLength, value.Length);
        Assert.Equal(key, BinaryPrimitives.ReadInt32LittleEndian(value));
        var version = BinaryPrimitives.ReadInt32LittleEndian(value[4..]);
        Assert.Equal((byte)(key * 7 + version), value[^1]);
        return version;
    }

    private static byte[] Balance(long balance)
    {
        var value = new byte[ValueLength];
        BinaryPrimitives.WriteInt64LittleEndian(value, balance);
        return value;
    }

    private static long BalanceOf(IPageReader pages, BTree tree, int account)
    {
        Assert.True(tree.TryGet(pages, TestKeys.Int(account), out var value));
        return BinaryPrimitives.ReadInt64LittleEndian(value.Span);
    }

    private static long Total(IPageReader read, BTree tree, int accounts)
    {
        long total = 0;
        for (var i = 0; i < accounts; i++)
        {
            Assert.True(tree.TryRead(read, TestKeys.Int(i), 0, static (value, _) => BinaryPrimitives.ReadInt64LittleEndian(value), out var balance));
            total += balance;
        }

        return total;
    }

    // On their own threads, so the writer and the readers run at once even when the thread pool
    // is busy with other tests.
    private static Task OnOwnThread(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
}
