using BLite.Core.BTrees;
using BLite.Core.Storage;
using Xunit.Abstractions;

namespace BLite.Core.Tests.BTrees;

/// <summary>The tree on the real storage engine: commit, rollback, reopen, snapshots, leak checks.</summary>
public sealed class BTreeOnStorageEngineTests(ITestOutputHelper output)
{
    private static StorageOptions Options => new() { Durability = Durability.Normal, PageSize = 4096 };

    [Fact]
    public void A_committed_tree_survives_reopen_and_owns_every_page_it_allocated()
    {
        using var database = new TestDatabase(Options);
        uint root;
        using (var write = database.Engine.BeginWrite())
        {
            var tree = BTree.Create(write);
            root = tree.RootPageId;
            for (var i = 0; i < 3000; i++)
                tree.Insert(write, TestKeys.Int(i), TestKeys.Value(i % 100 == 0 ? 9000 : 20, i));
            write.Commit();
        }

        database.Reopen();

        using (var read = database.Engine.BeginRead())
        {
            var tree = BTree.Open(root);
            for (var i = 0; i < 3000; i++)
            {
                Assert.True(tree.TryGet(read, TestKeys.Int(i), out var value));
                Assert.True(TestKeys.Value(i % 100 == 0 ? 9000 : 20, i).AsSpan().SequenceEqual(value.Span));
            }
        }
        AssertEveryPageOwnedOrFree(database.Engine, root);
    }

    [Fact]
    public void A_rolled_back_transaction_leaves_the_tree_as_committed()
    {
        using var database = new TestDatabase(Options);
        BTree tree;
        using (var write = database.Engine.BeginWrite())
        {
            tree = BTree.Create(write);
            for (var i = 0; i < 500; i++)
                tree.Insert(write, TestKeys.Int(i), [1]);
            write.Commit();
        }

        using (var write = database.Engine.BeginWrite())
        {
            for (var i = 0; i < 500; i++)
                tree.Delete(write, TestKeys.Int(i));
            for (var i = 1000; i < 3000; i++)
                tree.Insert(write, TestKeys.Int(i), TestKeys.Value(3000, i));
            write.Rollback();
        }

        using var read = database.Engine.BeginRead();
        var cursor = tree.Scan(read, KeyRange.All);
        for (var i = 0; i < 500; i++)
        {
            Assert.True(cursor.MoveNext());
            Assert.Equal(TestKeys.Int(i), cursor.Key.ToArray());
        }
        Assert.False(cursor.MoveNext());
        AssertEveryPageOwnedOrFree(database.Engine, tree.RootPageId);
    }

    [Fact]
    public void A_reader_keeps_scanning_its_snapshot_while_a_writer_changes_the_tree()
    {
        using var database = new TestDatabase(Options);
        BTree tree;
        using (var write = database.Engine.BeginWrite())
        {
            tree = BTree.Create(write);
            for (var i = 0; i < 2000; i++)
                tree.Insert(write, TestKeys.Int(i), [(byte)i]);
            write.Commit();
        }

        using var snapshot = database.Engine.BeginRead();
        var cursor = tree.Scan(snapshot, KeyRange.All);
        Assert.True(cursor.MoveNext());
        using (var write = database.Engine.BeginWrite())
        {
            for (var i = 0; i < 2000; i += 2)
                tree.Delete(write, TestKeys.Int(i));
            write.Commit();
        }

        var seen = 1;
        while (cursor.MoveNext())
            seen++;
        Assert.Equal(2000, seen);
    }

    [Fact]
    public void Dropping_a_tree_returns_every_page_to_the_free_list()
    {
        using var database = new TestDatabase(Options);
        using (var write = database.Engine.BeginWrite())
        {
            var tree = BTree.Create(write);
            for (var i = 0; i < 2000; i++)
                tree.Insert(write, TestKeys.Int(i), TestKeys.Value(i % 10 == 0 ? 5000 : 30, i));
            write.Commit();
            using var drop = database.Engine.BeginWrite();
            tree.Drop(drop);
            drop.Commit();
        }

        var report = database.Engine.Verify(requireEveryPageOwned: true);
        Assert.True(report.IsValid, report.ToString());
    }

    [Fact]
    public void Random_operations_with_commits_rollbacks_and_reopens_match_the_model()
    {
        const int seed = 7;
        output.WriteLine($"seed {seed}");
        using var database = new TestDatabase(Options);
        var random = new Random(seed);
        uint root;
        using (var write = database.Engine.BeginWrite())
        {
            root = BTree.Create(write).RootPageId;
            write.Commit();
        }

        var model = new ModelRun(BTree.Open(root), database.Engine.BeginWrite(), random);
        try
        {
            for (var batch = 0; batch < 30; batch++)
            {
                model.RunBatch(400);
                var transaction = (Transactions.WriteTransaction)model.Pages;
                if (random.Next(5) == 0)
                {
                    transaction.Rollback();
                    model.Rollback();
                }
                else
                {
                    transaction.Commit();
                    model.Commit();
                }
                transaction.Dispose();
                if (batch % 6 == 5)
                {
                    AssertEveryPageOwnedOrFree(database.Engine, root);
                    database.Reopen();
                }
                model.Pages = database.Engine.BeginWrite();
                model.AssertTreeEqualsModel($"seed {seed}, batch {batch}");
            }
        }
        finally
        {
            ((IDisposable)model.Pages).Dispose();
        }

        AssertEveryPageOwnedOrFree(database.Engine, root);
        using var snapshot = database.Engine.BeginRead();
        var verification = BTreeVerifier.Verify(snapshot, root);
        Assert.Equal(model.Count, verification.EntryCount);
        output.WriteLine($"{model.Count} entries, depth {verification.Depth}; {string.Join(", ", model.Operations)}");
    }

    private static void AssertEveryPageOwnedOrFree(StorageEngine engine, uint root)
    {
        var report = engine.Verify(requireEveryPageOwned: true, new BTreeOwnershipSource("test tree", root));
        Assert.True(report.IsValid, report.ToString());
    }
}
