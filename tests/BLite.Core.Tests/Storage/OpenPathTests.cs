using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>Paths an open cannot use get a clear <see cref="BLiteException"/> naming them, and nothing on disk changes.</summary>
public class OpenPathTests
{
    [Fact]
    public void A_log_whose_main_file_was_deleted_is_refused_and_kept()
    {
        using var db = new TestDatabase();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 9);
            tx.Commit();
        }

        db.Engine.CloseWithoutCheckpoint();
        File.Delete(db.Path);
        var wal = File.ReadAllBytes(db.WalPath);

        foreach (var options in new[] { db.Options, new StorageOptions { ReadOnly = true } })
        {
            var exception = Assert.Throws<BLiteException>(() => StorageEngine.Open(db.Path, options));
            Assert.Contains("the WAL of a database whose main file is missing", exception.Message, StringComparison.Ordinal);
            Assert.Contains(db.Path, exception.Message, StringComparison.Ordinal);
        }

        Assert.False(File.Exists(db.Path));
        Assert.Equal(wal, File.ReadAllBytes(db.WalPath));
        File.Delete(db.WalPath);
        db.Reopen();
    }

    [Fact]
    public void A_directory_is_refused_as_a_database_path()
    {
        using var dir = new TempDirectory();

        var exception = Assert.Throws<BLiteException>(() => StorageEngine.Open(dir.Path, new StorageOptions()));

        Assert.Contains("is a directory", exception.Message, StringComparison.Ordinal);
        Assert.Contains(dir.Path, exception.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(dir.Path));
        Assert.False(File.Exists(StorageEngine.WalPathFor(dir.Path)));
    }

    [Fact]
    public void A_missing_folder_is_named_rather_than_reported_as_a_raw_io_error()
    {
        using var dir = new TempDirectory();
        var folder = Path.Combine(dir.Path, "absent");
        var path = Path.Combine(folder, "db.blite");

        foreach (var readOnly in new[] { false, true })
        {
            var exception = Assert.Throws<BLiteException>(() => StorageEngine.Open(path, new StorageOptions { ReadOnly = readOnly }));
            Assert.Contains($"the folder '{folder}' does not exist", exception.Message, StringComparison.Ordinal);
        }

        Assert.False(Directory.Exists(folder));
    }

    [Fact]
    public void An_existing_empty_file_becomes_a_new_database_when_opened_for_writing()
    {
        using var dir = new TempDirectory();
        var path = Path.Combine(dir.Path, "made-by-touch.blite");
        File.WriteAllBytes(path, []);

        using (var engine = StorageEngine.Open(path, new StorageOptions()))
        using (var tx = engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 4);
            tx.Commit();
        }

        using var view = StorageEngine.Open(path, new StorageOptions { ReadOnly = true });
        using var read = view.BeginRead();
        Assert.Equal(4, PageData.Read(read, PageIds.Catalog));
    }
}
