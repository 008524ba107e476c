using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

public sealed class BTreeBasicTests
{
    [Fact]
    public void Empty_tree_finds_nothing_and_scans_nothing()
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);

        Assert.False(tree.TryGet(pages, TestKeys.Int(1), out _));
        Assert.False(tree.Scan(pages, KeyRange.All).MoveNext());
        Assert.False(tree.Scan(pages, KeyRange.All, descending: true).MoveNext());
        Assert.False(tree.Delete(pages, TestKeys.Int(1)));
        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(verification.Problems);
        Assert.Equal([tree.RootPageId], verification.OwnedPages);
    }

    [Fact]
    public void Single_key_round_trips()
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);

        Assert.True(tree.Insert(pages, TestKeys.Int(7), [1, 2, 3]));

        Assert.True(tree.TryGet(pages, TestKeys.Int(7), out var value));
        Assert.Equal([1, 2, 3], value.ToArray());
        var cursor = tree.Scan(pages, KeyRange.All);
        Assert.True(cursor.MoveNext());
        Assert.Equal(TestKeys.Int(7), cursor.Key.ToArray());
        Assert.Equal([1, 2, 3], cursor.Value.ToArray());
        Assert.False(cursor.MoveNext());
    }

    [Theory]
    [InlineData(3)]
    [InlineData(5_000)]
    public void TryRead_hands_over_the_same_bytes_as_TryGet_inline_or_through_an_overflow_chain(int length)
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        var stored = TestKeys.Value(length, seed: 11);
        tree.Insert(pages, TestKeys.Int(1), stored);

        Assert.True(tree.TryRead(pages, TestKeys.Int(1), 0, static (bytes, _) => bytes.ToArray(), out var read));
        Assert.Equal(stored, read);
        Assert.False(tree.TryRead(pages, TestKeys.Int(2), 0, static (bytes, _) => bytes.Length, out var missing));
        Assert.Equal(0, missing);
    }

    [Fact]
    public void Insert_of_an_existing_key_returns_false_and_keeps_the_value()
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);
        tree.Insert(pages, TestKeys.Int(1), [1]);

        Assert.False(tree.Insert(pages, TestKeys.Int(1), [2]));

        Assert.True(tree.TryGet(pages, TestKeys.Int(1), out var value));
        Assert.Equal([1], value.ToArray());
    }

    [Fact]
    public void Ascending_inserts_grow_the_tree_without_moving_the_root()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        var root = tree.RootPageId;

        for (var i = 0; i < 5000; i++)
            Assert.True(tree.Insert(pages, TestKeys.Int(i), BitConverter.GetBytes(i)));

        Assert.Equal(root, tree.RootPageId);
        var verification = BTreeVerifier.Verify(pages, root);
        Assert.Empty(verification.Problems);
        Assert.True(verification.Depth >= 3, $"depth {verification.Depth}");
        Assert.Equal(5000, verification.EntryCount);
        for (var i = 0; i < 5000; i++)
        {
            Assert.True(tree.TryGet(pages, TestKeys.Int(i), out var value));
            Assert.Equal(i, BitConverter.ToInt32(value.Span));
        }
    }

    [Fact]
    public void Ascending_inserts_leave_every_branch_but_the_rightmost_of_each_level_nearly_full()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 20_000; i++)
            Assert.True(tree.Insert(pages, TestKeys.Int(i), BitConverter.GetBytes(i)));

        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(verification.Problems);
        Assert.True(verification.Depth >= 3, $"depth {verification.Depth}");
        var branches = verification.OwnedPages
            .Where(id => id != tree.RootPageId && !BTreeNode.IsLeaf(pages.ReadPage(id).Span))
            .Select(id => BTreeNode.Count(pages.ReadPage(id).Span))
            .ToList();
        Assert.True(branches.Count >= 2 * verification.Depth, $"only {branches.Count} branches below the root");
        // A balanced split leaves each branch it splits half full, and ascending keys never come back to it.
        var fullest = branches.Max();
        var partial = branches.Count(count => count < fullest * 3 / 4);
        Assert.True(partial <= verification.Depth, $"{partial} of {branches.Count} branches are under three quarters of {fullest} keys");
        for (var i = 0; i < 20_000; i += 97)
            Assert.True(tree.TryGet(pages, TestKeys.Int(i), out _));
    }

    [Fact]
    public void Deleting_everything_shrinks_back_to_an_empty_root_without_leaking_pages()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        var random = new Random(11);
        var keys = Enumerable.Range(0, 3000).Select(i => TestKeys.Int(i * 7919L % 100_003)).ToList();
        foreach (var key in keys)
            tree.Insert(pages, key, TestKeys.Value(random.Next(0, 300), random.Next()));
        pages.Commit();
        Assert.True(pages.LivePages.Count > 50);

        foreach (var key in keys.OrderBy(_ => random.Next()))
            Assert.True(tree.Delete(pages, key));

        Assert.Equal([tree.RootPageId], pages.LivePages);
        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(verification.Problems);
        Assert.Equal(1, verification.Depth);
        Assert.False(tree.Scan(pages, KeyRange.All).MoveNext());
    }

    [Fact]
    public void Replace_changes_an_existing_value_and_refuses_an_absent_key_without_writing()
    {
        var pages = new InMemoryPages();
        var tree = BTree.Create(pages);
        tree.Insert(pages, TestKeys.Int(1), [1, 2, 3]);
        var large = new byte[20_000];
        new Random(5).NextBytes(large);

        Assert.True(tree.Replace(pages, TestKeys.Int(1), large));
        var writesBefore = pages.WritePageCalls;
        Assert.False(tree.Replace(pages, TestKeys.Int(2), [9]));

        Assert.Equal(writesBefore, pages.WritePageCalls);
        Assert.True(tree.TryGet(pages, TestKeys.Int(1), out var stored));
        Assert.Equal(large, stored.ToArray());
        Assert.False(tree.TryGet(pages, TestKeys.Int(2), out _));
        Assert.True(tree.Replace(pages, TestKeys.Int(1), [4]));
        Assert.True(tree.TryGet(pages, TestKeys.Int(1), out stored));
        Assert.Equal([4], stored.ToArray());
        Assert.Empty(BTreeVerifier.Verify(pages, tree.RootPageId).Problems);
    }
}
