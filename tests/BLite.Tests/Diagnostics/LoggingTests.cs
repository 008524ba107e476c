using BLite.Tests.Model;
using Microsoft.Extensions.Logging;

namespace BLite.Tests.Diagnostics;

public sealed class LoggingTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly RecordingLoggerFactory _logs = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Open_checkpoint_and_close_are_logged_under_the_BLite_category()
    {
        var path = _directory.File();
        using (var db = new ShopContext(Options(path)))
        {
            db.Orders.Insert(Orders.Create(1));
            db.Database.Checkpoint();
        }

        var opened = Assert.Single(_logs.Named("DatabaseOpened"));
        Assert.Equal("BLite", opened.Category);
        Assert.Equal(LogLevel.Information, opened.Level);
        Assert.Contains(Path.GetFullPath(path), opened.Message, StringComparison.Ordinal);
        Assert.Contains(_logs.Named("CheckpointCompleted"), e => e.Level == LogLevel.Debug && e.Message.Contains("pages", StringComparison.Ordinal));
        Assert.Single(_logs.Named("DatabaseClosed"));
        Assert.Empty(_logs.Named("SlowCommit"));
    }

    [Fact]
    public void A_commit_slower_than_the_threshold_is_a_warning()
    {
        var options = Options(_directory.File());
        options.SlowCommitThreshold = TimeSpan.Zero;
        using var db = new ShopContext(options);
        var before = _logs.Named("SlowCommit").Count;

        db.Orders.Insert(Orders.Create(1));

        var slow = _logs.Named("SlowCommit");
        Assert.Equal(before + 1, slow.Count);
        Assert.Equal(LogLevel.Warning, slow[^1].Level);
    }

    [Fact]
    public void Recovery_after_a_crash_is_logged()
    {
        var path = _directory.File();
        var db = new ShopContext(Options(path));
        db.Orders.InsertMany(Orders.Many(3));
        // As a killed process: the WAL keeps the commits, nothing is checkpointed.
        db.Engine.Storage.CloseWithoutCheckpoint();
        db.Dispose();

        using var reopened = new ShopContext(Options(path));

        var recovered = Assert.Single(_logs.Named("Recovered"));
        Assert.Equal(LogLevel.Information, recovered.Level);
        Assert.Equal(3, reopened.Orders.Count());
    }

    [Fact]
    public void Corruption_is_logged_and_the_database_then_refuses_writes()
    {
        var path = _directory.File();
        using (var db = new ShopContext(path))
        {
            db.Orders.InsertMany(Orders.Many(200));
        }

        CorruptDataPages(path);
        // A context that declares no collections opens without reading the damaged pages.
        using var damaged = new BareContext(Options(path));
        Assert.True(damaged.Database.AcceptsWrites);

        Assert.Throws<BLiteCorruptionException>(() => damaged.Database.GetCollection("orders").FindAll().ToList());

        var corruption = Assert.Single(_logs.Named("CorruptionDetected"));
        Assert.Equal(LogLevel.Error, corruption.Level);
        Assert.IsType<BLiteCorruptionException>(corruption.Exception);
        Assert.Single(_logs.Named("WritesRefused"));
        Assert.False(damaged.Database.AcceptsWrites);
        Assert.Contains("page", damaged.Database.WriteRefusalReason, StringComparison.Ordinal);
        Assert.Throws<BLiteException>(() => damaged.Database.GetCollection("events").Insert(new BsonDocument { ["kind"] = "refused" }));
    }

    private DocumentDbContextOptions Options(string path) => new() { Path = path, LoggerFactory = _logs };

    /// <summary>
    /// Flips one byte in every page of the file's second half: pages written late, which hold
    /// documents, fail their checksum, while the catalog (written first) stays readable.
    /// </summary>
    private static void CorruptDataPages(string path)
    {
        const int pageSize = 8192;
        using var file = File.Open(path, FileMode.Open, FileAccess.ReadWrite);
        var pages = file.Length / pageSize;
        for (var page = pages / 2; page < pages; page++)
        {
            file.Position = (page * pageSize) + 100;
            var b = file.ReadByte();
            file.Position--;
            file.WriteByte((byte)~b);
        }
    }
}

public partial class BareContext(DocumentDbContextOptions options) : DocumentDbContext(options)
{
}
