using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary><see cref="StorageEngine.Read{TState, TResult}"/>: a snapshot read through a recycled reader.</summary>
public class LentReaderTests
{
    [Fact]
    public void Read_sees_the_last_commit_and_not_one_made_during_the_call()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var (during, after) = db.Engine.Read(db.Engine, static (pages, engine) =>
        {
            Commit(engine, 2);
            return (PageData.Read(pages, PageIds.Catalog), engine.Read(0, static (fresh, _) => PageData.Read(fresh, PageIds.Catalog)));
        });

        Assert.Equal(1, during);
        Assert.Equal(2, after);
    }

    [Fact]
    public void Read_ends_its_snapshot_even_when_the_operation_throws()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        db.Engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog));
        Assert.Throws<InvalidOperationException>(() => db.Engine.Read(0, static (pages, _) => ThrowAfterReading(pages)));

        Assert.Equal(0, db.Engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_lent_reader_kept_past_the_call_is_refused()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var kept = db.Engine.Read(0, static (pages, _) => pages);

        Assert.Throws<ObjectDisposedException>(() => kept.ReadPage(PageIds.Catalog));
    }

    [Fact]
    public void A_lent_reader_is_refused_on_another_thread()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var error = db.Engine.Read(0, static (pages, _) =>
        {
            Exception? caught = null;
            var thread = new Thread(() => caught = Record.Exception(() => pages.ReadPage(PageIds.Catalog)));
            thread.Start();
            thread.Join();
            return caught;
        });

        Assert.IsType<InvalidOperationException>(error);
    }

    [Fact]
    public void A_lent_reader_ends_once_whether_or_not_the_operation_disposes_it_and_not_from_another_thread()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var (error, usableAfter, activeInside) = db.Engine.Read(db.Engine, static (pages, engine) =>
        {
            Exception? caught = null;
            var thread = new Thread(() => caught = Record.Exception(() => ((IDisposable)pages).Dispose()));
            thread.Start();
            thread.Join();
            var value = PageData.Read(pages, PageIds.Catalog);
            var active = engine.GetStatistics().ActiveReaders;
            ((IDisposable)pages).Dispose();
            ((IDisposable)pages).Dispose();
            return (caught, value, active);
        });

        Assert.IsType<InvalidOperationException>(error);
        Assert.Equal(1, usableAfter);
        Assert.Equal(1, activeInside);
        Assert.Equal(0, db.Engine.GetStatistics().ActiveReaders);
        Assert.Equal(1, db.Engine.Read(0, static (pages, _) => PageData.Read(pages, PageIds.Catalog)));
        Assert.Equal(0, db.Engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void Nested_reads_get_their_own_reader_and_the_outer_one_stays_usable()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var outerValue = db.Engine.Read(db.Engine, static (outer, engine) =>
        {
            var innerIsOuter = engine.Read(outer, static (inner, outer) => ReferenceEquals(inner, outer) || PageData.Read(inner, PageIds.Catalog) != 1);
            Assert.False(innerIsOuter);
            return PageData.Read(outer, PageIds.Catalog);
        });

        Assert.Equal(1, outerValue);
        Assert.Equal(0, db.Engine.GetStatistics().ActiveReaders);
    }

    [Fact]
    public void A_checkpoint_during_a_read_keeps_the_version_the_reader_sees()
    {
        using var db = new TestDatabase();
        Commit(db.Engine, 1);

        var seen = db.Engine.Read(db.Engine, static (pages, engine) =>
        {
            Commit(engine, 2);
            engine.Checkpoint();
            return PageData.Read(pages, PageIds.Catalog);
        });

        Assert.Equal(1, seen);
        Assert.Equal(0, db.Engine.GetStatistics().PinnedBytes);
    }

    private static void Commit(StorageEngine engine, long value)
    {
        using var write = engine.BeginWrite();
        PageData.Stamp(write, PageIds.Catalog, value);
        write.Commit();
    }

    private static int ThrowAfterReading(IPageReader pages)
    {
        PageData.Read(pages, PageIds.Catalog);
        throw new InvalidOperationException("operation failed");
    }
}
