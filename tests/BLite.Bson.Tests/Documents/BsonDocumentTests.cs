namespace BLite.Bson.Tests.Documents;

public class BsonDocumentTests
{
    [Fact]
    public void Fields_keep_insertion_order_and_setting_replaces_in_place()
    {
        var document = new BsonDocument { { "b", 1 }, { "a", 2 } };
        document["c"] = 3;
        document["b"] = "replaced";
        Assert.Equal(["b", "a", "c"], document.Names);
        Assert.Equal("replaced", document["b"].AsString);
    }

    [Fact]
    public void Names_are_case_sensitive_and_unique()
    {
        var document = new BsonDocument { { "Name", 1 }, { "name", 2 } };
        Assert.Equal(2, document.Count);
        Assert.Throws<ArgumentException>(() => document.Add("Name", 3));
        Assert.Throws<KeyNotFoundException>(() => document["NAME"]);
        Assert.False(document.TryGetValue("NAME", out _));
    }

    [Fact]
    public void Large_documents_find_fields_after_removals()
    {
        var document = new BsonDocument();
        for (var i = 0; i < 50; i++)
        {
            document.Add("f" + i, i);
        }

        Assert.True(document.Remove("f10"));
        Assert.False(document.Remove("f10"));
        Assert.False(document.ContainsKey("f10"));
        Assert.Equal(49, document["f49"].AsInt32);
        document.Add("f10", "back");
        Assert.Equal("back", document["f10"].AsString);
        Assert.Equal("f10", document.GetField(49).Key);
    }

    [Fact]
    public void TryGetPath_walks_documents_and_array_indexes()
    {
        var document = BsonDocument.Parse("""{"a":{"b":[10,{"c":"deep"}]}}""");
        Assert.True(document.TryGetPath("a.b.1.c", out var value));
        Assert.Equal("deep", value.AsString);
        Assert.True(document.TryGetPath("a.b.0", out value));
        Assert.Equal(10, value.AsInt32);
        Assert.False(document.TryGetPath("a.b.2", out _));
        Assert.False(document.TryGetPath("a.x", out _));
    }

    [Fact]
    public void Equality_is_deep_and_order_sensitive()
    {
        var left = new BsonDocument { { "a", 1 }, { "b", new BsonArray { 1, 2 } } };
        var same = new BsonDocument { { "a", 1 }, { "b", new BsonArray { 1, 2 } } };
        var reordered = new BsonDocument { { "b", new BsonArray { 1, 2 } }, { "a", 1 } };
        Assert.Equal(left, same);
        Assert.Equal(left.GetHashCode(), same.GetHashCode());
        Assert.NotEqual(left, reordered);
        Assert.NotEqual(left, new BsonDocument { { "a", 1L }, { "b", new BsonArray { 1, 2 } } });
    }
}
