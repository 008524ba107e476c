using BLite.Bson;

namespace BLite.Tests.Modeling;

public sealed class PersonV1
{
    public ObjectId Id { get; set; }

    public string Name { get; set; } = "";

    public int Age { get; set; }
}

public sealed class PersonV2
{
    public ObjectId Id { get; set; }

    public string Name { get; set; } = "";

    public string Email { get; set; } = "unknown";
}

public sealed class Note
{
    public int Id { get; set; }

    public string Text { get; set; } = "";
}

public partial class PeopleContextV1 : DocumentDbContext
{
    public PeopleContextV1(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, PersonV1> People { get; set; } = null!;

    public DocumentCollection<int, Note> Notes { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<PersonV1>().ToCollection("people").HasIndex(p => p.Name);
}

public partial class PeopleContextV2 : DocumentDbContext
{
    public PeopleContextV2(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, PersonV2> People { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<PersonV2>().ToCollection("people").HasIndex(p => p.Name).HasIndex(p => p.Email, name: "by_email");
}

public partial class PeopleContextV3 : DocumentDbContext
{
    public PeopleContextV3(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, PersonV2> People { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<PersonV2>().ToCollection("people").HasIndex(p => p.Email, unique: true);
}

public partial class PeopleContextFluent : DocumentDbContext
{
    public PeopleContextFluent(string path)
        : base(path)
    {
    }

    public DocumentCollection<ObjectId, PersonV2> People { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model) =>
        model.Entity<PersonV2>().ToCollection("people").HasIndex(p => p.Email).IsUnique().HasName("by_email");
}

public sealed class ModelChangeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Reopening_with_a_changed_model_keeps_data_adds_indexes_and_drops_nothing()
    {
        var path = _directory.File();
        ObjectId ada;
        ObjectId bob;
        using (var v1 = new PeopleContextV1(path))
        {
            ada = v1.People.Insert(new PersonV1 { Name = "Ada", Age = 36 });
            bob = v1.People.Insert(new PersonV1 { Name = "Bob", Age = 41 });
            v1.Notes.Insert(new Note { Text = "keep me" });
        }

        using (var v2 = new PeopleContextV2(path))
        {
            // The removed property is skipped, the added one keeps its initializer's value.
            var old = v2.People.FindById(ada)!;
            Assert.Equal("Ada", old.Name);
            Assert.Equal("unknown", old.Email);

            Assert.Equal(["by_email", "ix_Name"], IndexNames(v2, "people"));
            Assert.Equal(["Notes", "people"], v2.Database.GetCollectionNames());
            old.Email = "ada@example.com";
            v2.People.Update(old);
            v2.People.Insert(new PersonV2 { Name = "Grace", Email = "grace@example.com" });
            Assert.Single(v2.People.Find(p => p.Email == "ada@example.com"));
            Assert.True(v2.Database.Verify().IsValid);
        }

        using (var v1 = new PeopleContextV1(path))
        {
            Assert.Equal(["by_email", "ix_Name"], IndexNames(v1, "people"));
            Assert.Equal("keep me", v1.Notes.FindById(1)!.Text);
            // Documents V2 never rewrote still carry the field it no longer declares.
            Assert.Equal(41, v1.People.FindById(bob)!.Age);
            Assert.Equal(0, v1.People.FindById(ada)!.Age);
            Assert.Equal(3, v1.People.Count());
        }
    }

    [Fact]
    public void HasIndex_IsUnique_and_HasName_configure_the_index_as_in_EF_Core()
    {
        using var db = new PeopleContextFluent(_directory.File());
        db.People.Insert(new PersonV2 { Name = "Ada", Email = "ada@example.com" });

        Assert.Throws<BLiteUniqueConstraintException>(() => db.People.Insert(new PersonV2 { Name = "Bob", Email = "ada@example.com" }));

        Assert.Equal(["by_email"], IndexNames(db, "people"));
        Assert.Equal(1, db.People.Count());
    }

    private static List<string> IndexNames(DocumentDbContext context, string collection)
    {
        using var read = context.Engine.BeginRead();
        return context.Engine.GetRawCollection(collection).GetIndexes(read).Select(i => i.Name).Order(StringComparer.Ordinal).ToList();
    }

    [Fact]
    public void A_new_unique_index_that_existing_documents_violate_fails_to_open_and_changes_nothing()
    {
        var path = _directory.File();
        using (var v1 = new PeopleContextV1(path))
        {
            v1.People.Insert(new PersonV1 { Name = "Ada" });
            v1.People.Insert(new PersonV1 { Name = "Bob" });
        }

        // Both documents lack Email, and a unique index treats the missing value as one value.
        Assert.Throws<BLiteUniqueConstraintException>(() => new PeopleContextV3(path));

        using var again = new PeopleContextV1(path);
        Assert.Equal(["ix_Name"], IndexNames(again, "people"));
        Assert.Equal(2, again.People.Count());
    }
}
