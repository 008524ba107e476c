using System.Text;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

public class CorruptionTests
{
    [Fact]
    public void Opening_a_foreign_file_is_refused_and_leaves_it_unchanged()
    {
        using var dir = new TempDirectory();
        var path = Path.Combine(dir.Path, "notes.txt");
        var content = Encoding.UTF8.GetBytes(new string('x', 9000) + "some text that is not a database");
        File.WriteAllBytes(path, content);

        var exception = Assert.Throws<BLiteException>(() => StorageEngine.Open(path, new StorageOptions()));

        Assert.Contains(path, exception.Message, StringComparison.Ordinal);
        Assert.Contains("not a BLite database", exception.Message, StringComparison.Ordinal);
        Assert.Equal(content, File.ReadAllBytes(path));
        Assert.False(File.Exists(StorageEngine.WalPathFor(path)));
    }

    [Fact]
    public void Opening_a_newer_format_version_is_refused_and_leaves_the_file_unchanged()
    {
        using var db = new TestDatabase();
        db.Engine.Dispose();
        var bytes = File.ReadAllBytes(db.Path);
        bytes[8] = 3;
        File.WriteAllBytes(db.Path, bytes);

        var exception = Assert.Throws<BLiteException>(() => StorageEngine.Open(db.Path, db.Options));

        Assert.Contains("format version 3", exception.Message, StringComparison.Ordinal);
        Assert.Contains(db.Path, exception.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, File.ReadAllBytes(db.Path));
        bytes[8] = 2;
        File.WriteAllBytes(db.Path, bytes);
        db.Reopen();
    }

    [Fact]
    public void A_damaged_page_is_reported_naming_file_and_page_never_returned_as_data()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        uint page;
        using (var tx = db.Engine.BeginWrite())
        {
            page = tx.AllocatePage();
            PageData.Stamp(tx, page, 1234);
            tx.Commit();
        }

        db.Engine.Dispose();
        FileBytes.Flip(db.Path, (page * 4096L) + 100);
        db.Reopen();

        using (var read = db.Engine.BeginRead())
        {
            var exception = Assert.Throws<BLiteCorruptionException>(() => read.ReadPage(page));
            Assert.Equal(db.Path, exception.FilePath);
            Assert.Equal(page, exception.PageId);
            Assert.Contains($"page {page}", exception.Message, StringComparison.Ordinal);
        }

        var report = db.Engine.Verify();
        Assert.Contains(report.Issues, issue => issue.PageId == page);
        Assert.Throws<BLiteException>(() => db.Engine.BeginWrite());

        // Repair the byte so the test database's own verification on dispose passes.
        db.Engine.CloseWithoutCheckpoint();
        FileBytes.Flip(db.Path, (page * 4096L) + 100);
        db.Reopen();
    }

    [Fact]
    public void A_damaged_frame_in_the_middle_of_the_log_is_refused_with_a_corruption_exception()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        for (var i = 1; i <= 5; i++)
        {
            using var tx = db.Engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, i);
            tx.Commit();
        }

        db.Engine.CloseWithoutCheckpoint();
        var frameSize = 32 + 4096;
        FileBytes.Flip(db.WalPath, 40 + 32 + 500);

        var exception = Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));
        Assert.Contains("frame 0", exception.Message, StringComparison.Ordinal);
        Assert.Contains(db.WalPath, exception.Message, StringComparison.Ordinal);

        FileBytes.Flip(db.WalPath, 40 + 32 + 500);
        Assert.True(new FileInfo(db.WalPath).Length >= 40 + (5 * frameSize));
        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(5, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_torn_last_frame_is_discarded_and_earlier_commits_are_kept()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = 4096 });
        for (var i = 1; i <= 3; i++)
        {
            using var tx = db.Engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, i);
            tx.Commit();
        }

        db.Engine.CloseWithoutCheckpoint();
        var lastFrame = 40 + (2L * (32 + 4096));
        FileBytes.Flip(db.WalPath, lastFrame + 32 + 10);

        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(2, PageData.Read(read, PageIds.Catalog));
    }
}
