namespace BLite.Tests.Modeling;

public sealed class Memo
{
    public int Id { get; set; }

    public string Text { get; set; } = "";
}

public partial class MemoContext : DocumentDbContext
{
    public MemoContext(string path)
        : base(path)
    {
    }

    public DocumentCollection<int, Memo> Memos { get; set; } = null!;

    public DocumentCollection<int, Memo> ArchivedMemos { get; set; } = null!;
}

/// <summary>Stands in for an earlier version of an application, whose model declared nothing yet.</summary>
public partial class EarlierMemoContext : DocumentDbContext
{
    public EarlierMemoContext(string path)
        : base(path)
    {
    }
}

public sealed class CollectionNamingTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_collection_is_named_after_its_context_property()
    {
        using var db = new MemoContext(_directory.File());
        db.Memos.Insert(new Memo { Id = 1, Text = "live" });
        db.ArchivedMemos.Insert(new Memo { Id = 1, Text = "old" });

        Assert.Equal("Memos", db.Memos.Name);
        Assert.Equal("ArchivedMemos", db.ArchivedMemos.Name);
        Assert.Equal(["ArchivedMemos", "Memos"], db.Database.GetCollectionNames());
        Assert.Equal("old", db.ArchivedMemos.FindById(1)!.Text);
    }

    [Fact]
    public void A_database_written_under_the_former_type_name_default_is_still_found()
    {
        // Before collections took their property's name they took the document type's ("Memo").
        var path = _directory.File();
        using (var earlier = new EarlierMemoContext(path))
        {
            earlier.Database.GetCollection("Memo").Insert(new BsonDocument { ["_id"] = 7, ["Text"] = "written by an earlier version" });
        }

        using var db = new MemoContext(path);

        Assert.Equal("Memo", db.Memos.Name);
        Assert.Equal("written by an earlier version", db.Memos.FindById(7)!.Text);
        // Only one property can take the former collection over; the other keeps its own name.
        Assert.Equal("ArchivedMemos", db.ArchivedMemos.Name);
        Assert.Equal(0, db.ArchivedMemos.Count());
    }
}
