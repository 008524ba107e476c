using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Tests.BTrees;

/// <summary>Drives one tree and a SortedDictionary model with the same random operations.</summary>
internal sealed class ModelRun(BTree tree, IPageWriter pages, Random random)
{
    private SortedDictionary<byte[], byte[]> _model = new(TestKeys.ByteComparer.Instance);
    private SortedDictionary<byte[], byte[]> _committed = new(TestKeys.ByteComparer.Instance);
    private readonly RandomKeys _keys = new(random);

    public Random Random => random;

    public int Count => _model.Count;

    public Dictionary<string, int> Operations { get; } = new()
    {
        ["insert"] = 0, ["insert-existing"] = 0, ["upsert"] = 0, ["delete-hit"] = 0,
        ["delete-miss"] = 0, ["get-hit"] = 0, ["scan"] = 0, ["overflow-value"] = 0,
    };

    /// <summary>Swaps the tree's page access (after a reopen on a real engine).</summary>
    public IPageWriter Pages { get; set; } = pages;

    public void RunBatch(int operations)
    {
        for (var i = 0; i < operations; i++)
        {
            var key = _keys.Next();
            var roll = random.Next(100);
            if (roll < 30)
                Insert(key);
            else if (roll < 55)
                Upsert(key);
            else if (roll < 80)
                Delete(key);
            else if (roll < 95)
                Get(key);
            else
                Scan(key, _keys.Next());
        }
    }

    public void Commit() => _committed = new SortedDictionary<byte[], byte[]>(_model, TestKeys.ByteComparer.Instance);

    public void Rollback() => _model = new SortedDictionary<byte[], byte[]>(_committed, TestKeys.ByteComparer.Instance);

    public void AssertTreeEqualsModel(string context)
    {
        var cursor = tree.Scan(Pages, KeyRange.All);
        using var expected = _model.GetEnumerator();
        var index = 0;
        while (cursor.MoveNext())
        {
            Assert.True(expected.MoveNext(), $"{context}: tree has extra entry at {index}");
            Assert.True(expected.Current.Key.AsSpan().SequenceEqual(cursor.Key), $"{context}: key mismatch at {index}");
            Assert.True(expected.Current.Value.AsSpan().SequenceEqual(cursor.ValueSpan), $"{context}: value mismatch at {index}");
            index++;
        }
        Assert.False(expected.MoveNext(), $"{context}: tree is missing entries after {index}");
    }

    private byte[] NextValue()
    {
        var roll = random.Next(100);
        var length = roll switch
        {
            < 70 => random.Next(0, 40),
            < 90 => random.Next(40, 400),
            < 98 => random.Next(400, 3000),
            _ => random.Next(3000, 20_000),
        };
        if (length >= 3000)
            Operations["overflow-value"]++;
        return TestKeys.Value(length, random.Next());
    }

    private void Insert(byte[] key)
    {
        var value = NextValue();
        var inserted = tree.Insert(Pages, key, value);
        Assert.Equal(!_model.ContainsKey(key), inserted);
        if (inserted)
        {
            _model[key] = value;
            Operations["insert"]++;
        }
        else
        {
            Operations["insert-existing"]++;
        }
    }

    private void Upsert(byte[] key)
    {
        var value = NextValue();
        tree.Upsert(Pages, key, value);
        _model[key] = value;
        Operations["upsert"]++;
    }

    private void Delete(byte[] key)
    {
        var deleted = tree.Delete(Pages, key);
        Assert.Equal(_model.Remove(key), deleted);
        Operations[deleted ? "delete-hit" : "delete-miss"]++;
    }

    private void Get(byte[] key)
    {
        var found = tree.TryGet(Pages, key, out var value);
        Assert.Equal(_model.TryGetValue(key, out var expected), found);
        if (found)
        {
            Assert.True(expected!.AsSpan().SequenceEqual(value.Span));
            Operations["get-hit"]++;
        }
    }

    private void Scan(byte[] a, byte[] b)
    {
        var (lower, upper) = TestKeys.Compare(a, b) <= 0 ? (a, b) : (b, a);
        var lowerInclusive = random.Next(2) == 0;
        var upperInclusive = random.Next(2) == 0;
        var range = random.Next(4) switch
        {
            0 => KeyRange.From(lower, lowerInclusive),
            1 => KeyRange.To(upper, upperInclusive),
            _ => KeyRange.Between(lower, lowerInclusive, upper, upperInclusive),
        };
        var descending = random.Next(2) == 0;
        const int limit = 40;

        var expected = (descending ? _model.Reverse() : _model).Where(entry => range.Contains(entry.Key)).Take(limit).ToList();
        var cursor = tree.Scan(Pages, range, descending);
        foreach (var entry in expected)
        {
            Assert.True(cursor.MoveNext());
            Assert.True(entry.Key.AsSpan().SequenceEqual(cursor.Key));
            Assert.True(entry.Value.AsSpan().SequenceEqual(cursor.ValueSpan));
        }
        if (expected.Count < limit)
            Assert.False(cursor.MoveNext());
        Operations["scan"]++;
    }
}
