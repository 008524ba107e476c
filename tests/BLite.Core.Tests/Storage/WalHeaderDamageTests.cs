using System.Buffers.Binary;
using BLite.Core.Storage;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// A WAL header damaged after the fact must never make recovery drop acknowledged commits: the
/// frames behind it are recovered exactly, or the open is refused and nothing is changed.
/// </summary>
public class WalHeaderDamageTests
{
    private const int PageSize = 4096;
    private const int Commits = 3;

    public static TheoryData<int> HeaderBytes()
    {
        var data = new TheoryData<int>();
        for (var offset = 0; offset < WalFormat.HeaderSize; offset++)
        {
            data.Add(offset);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(HeaderBytes))]
    public void Any_damaged_header_byte_in_front_of_commits_recovers_every_commit(int offset)
    {
        using var db = DatabaseWithUncheckpointedCommits();
        FileBytes.Flip(db.WalPath, offset);
        Assert.NotEqual(WalFormat.HeaderChecksum(HeaderOf(db.WalPath)), Crc32C.Compute(HeaderOf(db.WalPath)[..36]));

        db.Reopen();

        using var read = db.Engine.BeginRead();
        Assert.Equal(Commits, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_damaged_header_over_a_damaged_first_frame_is_refused_and_the_log_is_left_unchanged()
    {
        using var db = DatabaseWithUncheckpointedCommits();
        FileBytes.Flip(db.WalPath, 28);
        FileBytes.Flip(db.WalPath, WalFormat.HeaderSize + 8);
        var wal = File.ReadAllBytes(db.WalPath);
        var file = File.ReadAllBytes(db.Path);

        var exception = Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));

        Assert.Contains(db.WalPath, exception.Message, StringComparison.Ordinal);
        Assert.Contains("header is damaged", exception.Message, StringComparison.Ordinal);
        Assert.Equal(wal, File.ReadAllBytes(db.WalPath));
        Assert.Equal(file, File.ReadAllBytes(db.Path));
        FileBytes.Flip(db.WalPath, 28);
        FileBytes.Flip(db.WalPath, WalFormat.HeaderSize + 8);
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(Commits, PageData.Read(read, PageIds.Catalog));
    }

    [Fact]
    public void A_version_1_log_is_still_recovered_and_its_damaged_header_is_refused()
    {
        using var db = DatabaseWithUncheckpointedCommits();
        RewriteAsVersion1(db.WalPath);
        var wal = File.ReadAllBytes(db.WalPath);

        FileBytes.Flip(db.WalPath, 25);
        Assert.Throws<BLiteCorruptionException>(() => StorageEngine.Open(db.Path, db.Options));
        FileBytes.Flip(db.WalPath, 25);
        Assert.Equal(wal, File.ReadAllBytes(db.WalPath));

        db.Reopen();
        using (var read = db.Engine.BeginRead())
        {
            Assert.Equal(Commits, PageData.Read(read, PageIds.Catalog));
        }

        db.Engine.Dispose();
        Assert.Equal(WalFormat.Version, BinaryPrimitives.ReadUInt32LittleEndian(HeaderOf(db.WalPath).AsSpan(8)));
        db.Reopen();
    }

    [Fact]
    public void A_header_torn_while_a_new_log_was_started_opens_as_an_empty_log()
    {
        using var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        db.Engine.Dispose();
        // A checkpointed log holds only its header; a power cut while a new log's header was
        // written leaves zeros where the header would be.
        File.WriteAllBytes(db.WalPath, new byte[WalFormat.HeaderSize]);

        db.Reopen();

        using (var tx = db.Engine.BeginWrite())
        {
            PageData.Stamp(tx, PageIds.Catalog, 7);
            tx.Commit();
        }

        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(7, PageData.Read(read, PageIds.Catalog));
    }

    private static TestDatabase DatabaseWithUncheckpointedCommits()
    {
        var db = new TestDatabase(new StorageOptions { PageSize = PageSize });
        for (var i = 1; i <= Commits; i++)
        {
            using var tx = db.Engine.BeginWrite();
            PageData.Stamp(tx, PageIds.Catalog, i);
            tx.Commit();
        }

        db.Engine.CloseWithoutCheckpoint();
        Assert.True(new FileInfo(db.WalPath).Length >= WalFormat.HeaderSize + (Commits * WalFormat.FrameSize(PageSize)));
        return db;
    }

    private static byte[] HeaderOf(string walPath) => File.ReadAllBytes(walPath)[..WalFormat.HeaderSize];

    /// <summary>Turns a version 2 log into the version 1 layout: frame 0 chained from the header's CRC.</summary>
    private static void RewriteAsVersion1(string walPath)
    {
        var bytes = File.ReadAllBytes(walPath);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8), WalFormat.HeaderSeededVersion);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(36), Crc32C.Compute(bytes.AsSpan(0, 36)));
        var checksum = WalFormat.HeaderChecksum(bytes);
        var frameSize = WalFormat.FrameSize(PageSize);
        for (var offset = WalFormat.HeaderSize; offset + frameSize <= bytes.Length; offset += frameSize)
        {
            var frame = bytes.AsSpan(offset, frameSize);
            if (WalFormat.FrameGeneration(frame) != BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(24)))
            {
                break;
            }

            checksum = WalFormat.ChainChecksum(checksum, frame[..WalFormat.FrameHeaderSize], frame[WalFormat.FrameHeaderSize..]);
            WalFormat.SetFrameChecksum(frame, checksum);
        }

        File.WriteAllBytes(walPath, bytes);
    }
}
