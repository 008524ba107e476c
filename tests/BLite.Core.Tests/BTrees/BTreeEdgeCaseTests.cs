using BLite.Core.BTrees;

namespace BLite.Core.Tests.BTrees;

public sealed class BTreeEdgeCaseTests
{
    [Theory]
    [InlineData(512)]
    [InlineData(4096)]
    [InlineData(8160)]
    public void Keys_at_the_limit_are_stored_and_one_byte_more_is_rejected_without_change(int payloadSize)
    {
        var pages = new InMemoryPages(payloadSize);
        var tree = BTree.Create(pages);
        var limit = tree.MaxKeySize(payloadSize);
        var random = new Random(3);
        for (var i = 0; i < 40; i++)
        {
            var key = TestKeys.Value(limit, i);
            Assert.True(tree.Insert(pages, key, TestKeys.Value(random.Next(0, 3 * limit), i)));
        }
        pages.Commit();
        var before = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(before.Problems);

        var tooLong = TestKeys.Value(limit + 1, 99);
        var writesBefore = pages.WritePageCalls;
        var exception = Assert.Throws<BLiteKeyTooLargeException>(() => tree.Insert(pages, tooLong, [1]));
        Assert.Throws<BLiteKeyTooLargeException>(() => tree.Upsert(pages, tooLong, [1]));

        Assert.Equal(limit + 1, exception.KeySize);
        Assert.Equal(limit, exception.MaxKeySize);
        Assert.Contains($"{limit + 1} bytes", exception.Message);
        Assert.Equal(writesBefore, pages.WritePageCalls);
        Assert.Equal(before.OwnedPages.OrderBy(p => p), pages.LivePages.OrderBy(p => p));
        Assert.False(tree.TryGet(pages, tooLong, out _));
        Assert.False(tree.Delete(pages, tooLong));
        Assert.True(BTree.GetMaxKeySize(payloadSize) * 4 < payloadSize);
    }

    [Fact]
    public void Values_from_empty_to_sixteen_megabytes_round_trip_and_free_their_overflow_pages()
    {
        var pages = new InMemoryPages(8160);
        var tree = BTree.Create(pages);
        int[] sizes = [0, 1, 2000, 2100, 8148, 8149, 100_000, 16 * 1024 * 1024 + 3];
        foreach (var size in sizes)
            Assert.True(tree.Insert(pages, TestKeys.Int(size), TestKeys.Value(size, size)));
        pages.Commit();

        foreach (var size in sizes)
        {
            Assert.True(tree.TryGet(pages, TestKeys.Int(size), out var value));
            Assert.True(TestKeys.Value(size, size).AsSpan().SequenceEqual(value.Span), $"size {size}");
        }
        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(verification.Problems);
        Assert.True(verification.OwnedPages.Count > 2000);

        tree.Upsert(pages, TestKeys.Int(16 * 1024 * 1024 + 3), [7]);
        foreach (var size in sizes.Where(s => s != 16 * 1024 * 1024 + 3))
            Assert.True(tree.Delete(pages, TestKeys.Int(size)));

        Assert.Equal([tree.RootPageId], pages.LivePages);
        Assert.True(tree.TryGet(pages, TestKeys.Int(16 * 1024 * 1024 + 3), out var small));
        Assert.Equal([7], small.ToArray());
    }

    [Fact]
    public void Drop_frees_every_page_including_overflow_chains()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 2000; i++)
            tree.Insert(pages, TestKeys.Int(i), TestKeys.Value(i % 10 == 0 ? 1500 : 10, i));
        pages.Commit();

        tree.Drop(pages);

        Assert.Empty(pages.LivePages);
        pages.Commit();
        Assert.Equal(0, pages.CommittedPageCount);
    }

    [Fact]
    public void Rollback_restores_the_tree_as_of_the_last_commit()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 500; i++)
            tree.Insert(pages, TestKeys.Int(i), [(byte)i]);
        pages.Commit();
        var committedPages = pages.LivePages.ToHashSet();

        for (var i = 0; i < 500; i += 2)
            tree.Delete(pages, TestKeys.Int(i));
        for (var i = 500; i < 1500; i++)
            tree.Insert(pages, TestKeys.Int(i), [(byte)i]);
        pages.Rollback();

        Assert.Equal(committedPages, pages.LivePages);
        var cursor = tree.Scan(pages, KeyRange.All);
        for (var i = 0; i < 500; i++)
        {
            Assert.True(cursor.MoveNext());
            Assert.Equal(TestKeys.Int(i), cursor.Key.ToArray());
        }
        Assert.False(cursor.MoveNext());
    }

    [Fact]
    public void Descending_scans_return_keys_in_reverse_within_bounds()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 1000; i++)
            tree.Insert(pages, TestKeys.Int(i), []);

        Assert.Equal(Enumerable.Range(0, 1000).Reverse(), ReadInts(tree.Scan(pages, KeyRange.All, descending: true)));
        Assert.Equal(Enumerable.Range(101, 399).Reverse(), ReadInts(tree.Scan(pages, KeyRange.Between(TestKeys.Int(100), false, TestKeys.Int(500), false), descending: true)));
        Assert.Equal(Enumerable.Range(100, 401).Reverse(), ReadInts(tree.Scan(pages, KeyRange.Between(TestKeys.Int(100), true, TestKeys.Int(500), true), descending: true)));
        Assert.Equal(Enumerable.Range(0, 11).Reverse(), ReadInts(tree.Scan(pages, KeyRange.To(TestKeys.Int(10)), descending: true)));
        Assert.Equal(Enumerable.Range(990, 10).Reverse(), ReadInts(tree.Scan(pages, KeyRange.From(TestKeys.Int(989), inclusive: false), descending: true)));
        Assert.Equal([700], ReadInts(tree.Scan(pages, KeyRange.Exact(TestKeys.Int(700)), descending: true)));
        Assert.Empty(ReadInts(tree.Scan(pages, KeyRange.Exact(TestKeys.Int(5000)), descending: true)));
    }

    [Fact]
    public void Seek_moves_the_cursor_to_the_first_key_at_or_after_the_target()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        for (var i = 0; i < 1000; i += 2)
            tree.Insert(pages, TestKeys.Int(i), []);

        var cursor = tree.Scan(pages, KeyRange.Between(TestKeys.Int(100), true, TestKeys.Int(900), true));
        cursor.Seek(TestKeys.Int(501));
        Assert.Equal([502, 504, 506], ReadInts(cursor).Take(3));
        cursor.Seek(TestKeys.Int(10));
        Assert.True(cursor.MoveNext());
        Assert.Equal(100, new KeyReader(cursor.Key).ReadInt32());

        var backwards = tree.Scan(pages, KeyRange.All, descending: true);
        backwards.Seek(TestKeys.Int(501));
        Assert.Equal([500, 498], ReadInts(backwards).Take(2));
    }

    [Fact]
    public void Prefix_scans_return_exactly_the_strings_that_start_with_the_prefix()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        string[] words = ["", "a", "ab", "ab\0", "abc", "abd", "ab\U0001F600", "abz", "ac", "b", "\U0001F600", "\U0001F600x"];
        foreach (var word in words)
            tree.Insert(pages, TestKeys.Str(word), System.Text.Encoding.UTF8.GetBytes(word));

        foreach (var prefix in new[] { "", "a", "ab", "ab\0", "\U0001F600", "zz" })
        {
            var found = new List<string>();
            var cursor = tree.Scan(pages, KeyRange.Prefix(TestKeys.StrPrefix(prefix)));
            while (cursor.MoveNext())
                found.Add(System.Text.Encoding.UTF8.GetString(cursor.ValueSpan));
            var expected = words.Where(w => w.StartsWith(prefix, StringComparison.Ordinal)).OrderBy(w => w, Comparer<string>.Create(KeyEncodingOrderTests.CompareByCodePoint));
            Assert.Equal(expected, found);
        }
    }

    [Fact]
    public void Composite_prefix_scans_find_every_entry_of_a_leading_component_including_null()
    {
        var pages = new InMemoryPages(512);
        var tree = BTree.Create(pages);
        string?[] statuses = [null, "pending", "shipped", "shipped2"];
        for (var i = 0; i < 400; i++)
        {
            var status = statuses[i % statuses.Length];
            var id = i;
            tree.Insert(pages, TestKeys.Encode((ref KeyWriter w) =>
            {
                if (status is null) w.WriteNull(); else w.WriteString(status);
                w.WriteInt32(id);
            }), BitConverter.GetBytes(i));
        }

        var all = ReadValues(tree.Scan(pages, KeyRange.All));
        Assert.Equal(Enumerable.Range(0, 100).Select(i => i * 4), all.Take(100));
        Assert.Equal(Enumerable.Range(0, 100).Select(i => i * 4 + 2), ReadValues(tree.Scan(pages, KeyRange.Prefix(TestKeys.Str("shipped")))));
        Assert.Equal(Enumerable.Range(0, 100).Select(i => i * 4), ReadValues(tree.Scan(pages, KeyRange.Prefix(TestKeys.Encode((ref KeyWriter w) => w.WriteNull())))));
    }

    private static List<int> ReadInts(BTreeCursor cursor)
    {
        var result = new List<int>();
        while (cursor.MoveNext())
            result.Add(new KeyReader(cursor.Key).ReadInt32());
        return result;
    }

    private static List<int> ReadValues(BTreeCursor cursor)
    {
        var result = new List<int>();
        while (cursor.MoveNext())
            result.Add(BitConverter.ToInt32(cursor.ValueSpan));
        return result;
    }
}
