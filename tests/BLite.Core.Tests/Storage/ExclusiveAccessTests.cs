using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

public class ExclusiveAccessTests
{
    [Fact]
    public void A_second_engine_in_the_same_process_is_refused_and_the_first_is_unharmed()
    {
        using var db = new TestDatabase();

        var exception = Assert.Throws<BLiteDatabaseLockedException>(() => StorageEngine.Open(db.Path, db.Options));

        Assert.Equal(db.Path, exception.FilePath);
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 3);
            tx.Commit();
        }

        using var read = db.Engine.BeginRead();
        Assert.Equal(3, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_second_process_is_refused_while_the_database_is_open_and_admitted_after_close()
    {
        using var db = new TestDatabase();
        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 8);
            tx.Commit();
        }

        var (lockedExit, lockedOutput) = RunTryOpen(db.Path);
        Assert.Equal(3, lockedExit);
        Assert.StartsWith("locked", lockedOutput, StringComparison.Ordinal);

        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(8, PageData.Read(read, PageIds.Catalog));
        }

        db.Engine.Dispose();
        var (openedExit, openedOutput) = RunTryOpen(db.Path);
        Assert.Equal(0, openedExit);
        Assert.StartsWith("opened", openedOutput, StringComparison.Ordinal);
        db.Reopen();
    }

    private static (int ExitCode, string Output) RunTryOpen(string path)
    {
        using var child = CrashWorkerProcess.Start("try-open", path);
        var output = child.StandardOutput.ReadToEnd();
        var error = child.StandardError.ReadToEnd();
        child.WaitForExit();
        return (child.ExitCode, output + error);
    }
}
