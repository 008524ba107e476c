namespace BLite.Bson.Tests;

public class BsonFieldDictionaryTests
{
    [Fact]
    public void Id_zero_is_always_underscore_id()
    {
        var dictionary = new BsonFieldDictionary();
        Assert.Equal(1, dictionary.Count);
        Assert.True(dictionary.TryGetName(0, out var name));
        Assert.Equal("_id", name);
        Assert.Equal((ushort)0, dictionary.GetOrAdd("_id"));
    }

    [Fact]
    public void Names_get_sequential_ids_and_are_case_sensitive()
    {
        var dictionary = new BsonFieldDictionary();
        Assert.Equal((ushort)1, dictionary.GetOrAdd("Name"));
        Assert.Equal((ushort)2, dictionary.GetOrAdd("name"));
        Assert.Equal((ushort)1, dictionary.GetOrAdd("Name"));
        Assert.True(dictionary.TryGetId("name", out var id));
        Assert.Equal((ushort)2, id);
        Assert.True(dictionary.TryGetId("xNamex".AsSpan(1, 4), out id));
        Assert.Equal((ushort)1, id);
        Assert.False(dictionary.TryGetId("NAME", out _));
        Assert.False(dictionary.TryGetName(3, out _));
        Assert.Equal((ushort)3, dictionary.GetOrAdd(""));
    }

    [Fact]
    public void GetNamesFrom_and_FromNames_persist_and_reload_the_same_ids()
    {
        var dictionary = new BsonFieldDictionary();
        foreach (var name in new[] { "a", "b", "ç", "😀" })
        {
            dictionary.GetOrAdd(name);
        }

        Assert.Equal(["b", "ç", "😀"], dictionary.GetNamesFrom(2));
        Assert.Empty(dictionary.GetNamesFrom(5));
        var reloaded = BsonFieldDictionary.FromNames(dictionary.GetNamesFrom(0));
        Assert.Equal(dictionary.Count, reloaded.Count);
        for (ushort id = 0; id < dictionary.Count; id++)
        {
            Assert.True(reloaded.TryGetName(id, out var name));
            Assert.True(dictionary.TryGetName(id, out var original));
            Assert.Equal(original, name);
        }
    }

    [Fact]
    public void FromNames_rejects_a_list_not_starting_with_id_or_with_duplicates()
    {
        Assert.Throws<ArgumentException>(() => BsonFieldDictionary.FromNames(["a"]));
        Assert.Throws<ArgumentException>(() => BsonFieldDictionary.FromNames(["_id", "a", "a"]));
        Assert.Equal(1, BsonFieldDictionary.FromNames([]).Count);
    }

    [Fact]
    public void Overflowing_65536_names_is_a_clear_error()
    {
        var dictionary = new BsonFieldDictionary();
        for (var i = 1; i < BsonLimits.MaxFieldNames; i++)
        {
            dictionary.GetOrAdd("f" + i);
        }

        Assert.Equal(BsonLimits.MaxFieldNames, dictionary.Count);
        Assert.True(dictionary.TryGetName(ushort.MaxValue, out var last));
        Assert.Equal("f65535", last);
        var error = Assert.Throws<InvalidOperationException>(() => dictionary.GetOrAdd("one too many"));
        Assert.Contains("full", error.Message);
        Assert.Equal((ushort)42, dictionary.GetOrAdd("f42"));
    }

    [Fact]
    public void Concurrent_adds_and_reads_agree_on_every_id()
    {
        var dictionary = new BsonFieldDictionary();
        var names = Enumerable.Range(0, 2000).Select(i => "field" + i).ToArray();
        // Each worker visits every name once, in its own order (the strides are coprime with 2000).
        int[] strides = [7919, 7907, 7901, 7883];
        var results = new ushort[4][];
        Parallel.For(0, 4, worker =>
        {
            var ids = new ushort[names.Length];
            for (var i = 0; i < names.Length; i++)
            {
                var index = (int)((long)i * strides[worker] % names.Length);
                ids[index] = dictionary.GetOrAdd(names[index]);
                Assert.True(dictionary.TryGetName(ids[index], out var name));
                Assert.Equal(names[index], name);
            }

            results[worker] = ids;
        });

        Assert.Equal(names.Length + 1, dictionary.Count);
        for (var worker = 1; worker < 4; worker++)
        {
            Assert.Equal(results[0], results[worker]);
        }

        Assert.Equal(names.Length, results[0].Distinct().Count());
    }
}
