using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Collections;

/// <summary>
/// A file-backed database in a fresh temp directory. Dispose runs Verify (a failing check fails
/// the test) and deletes the directory.
/// </summary>
internal sealed class CollectionsTestDatabase : IDisposable
{
    private readonly string _directory;

    public CollectionsTestDatabase(IEnumerable<CollectionDefinition>? collections = null, Durability durability = Durability.Normal, StorageOptions? options = null)
    {
        _directory = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "blite-collections-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
        Path = System.IO.Path.Combine(_directory, "test.blite");
        Options = options ?? new StorageOptions { Durability = durability };
        Database = DocumentDatabase.Open(Path, Options, collections);
    }

    public string Path { get; }

    public StorageOptions Options { get; }

    public DocumentDatabase Database { get; private set; }

    public TransactionalBsonCollection Collection(string name) => Database.GetCollection(name);

    /// <param name="whileClosed">Runs between the close and the open (to leave the files as a crash would).</param>
    public void Reopen(IEnumerable<CollectionDefinition>? collections = null, Action? whileClosed = null)
    {
        AssertValid(Database);
        Database.Dispose();
        whileClosed?.Invoke();
        Database = DocumentDatabase.Open(Path, Options, collections);
    }

    public static void AssertValid(DocumentDatabase database)
    {
        var report = database.Verify();
        Assert.True(report.IsValid, "Verify found problems:\n" + string.Join("\n", report.Issues));
    }

    public void Dispose()
    {
        try
        {
            AssertValid(Database);
        }
        finally
        {
            Database.Dispose();
            Directory.Delete(_directory, recursive: true);
        }
    }
}
