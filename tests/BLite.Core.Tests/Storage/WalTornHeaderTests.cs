using System.Buffers.Binary;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Recovery refuses a log whose damaged frame a later frame records as flushed (docs/format.md,
/// recovery step 3). A frame header can straddle a sector boundary, so a torn write can leave a
/// new frame's generation and salt beside an older frame's durable count and checksum: such a
/// count is not evidence, and the torn, never acknowledged transaction is simply discarded.
/// </summary>
public class WalTornHeaderTests
{
    private static readonly StorageOptions Options = new()
    {
        Durability = Durability.Full,
        PageSize = 4096,
        CheckpointInBackground = false,
    };

    [Fact]
    public void A_torn_write_that_kept_an_older_frames_durable_count_is_discarded_not_refused()
    {
        var (file, wal) = LogOfLedgerCommits(commits: 4);
        var frames = Frames(wal);
        var last = LastTransaction(wal, frames);
        Assert.True(last.Count >= 2, "the last transaction should span at least two frames");

        // The last transaction's write tore: its first frame lost a sector, and the sector holding
        // its second frame's last 8 header bytes kept an older frame's durable count and checksum
        // (the image around them matched, so the frame still looks whole in itself).
        var torn = frames[last.First];
        var stale = frames[last.First + 1];
        Assert.Equal((uint)last.First, DurableCount(wal, stale));
        wal[torn + WalFormat.FrameHeaderSize + 100] ^= 0x5A;
        BinaryPrimitives.WriteUInt32LittleEndian(wal.AsSpan(stale + 24), (uint)last.First + 1);
        BinaryPrimitives.WriteUInt32LittleEndian(wal.AsSpan(stale + 28), 0xC0FFEE);

        using var reopened = new FaultDatabase(file, wal).Open(Options);
        using var read = reopened.BeginRead();
        Assert.Equal(3, CommitLedger.Check(read));
        Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid);
    }

    [Fact]
    public void A_damaged_frame_that_a_later_chained_frame_records_as_flushed_is_still_refused()
    {
        var (file, wal) = LogOfLedgerCommits(commits: 4);
        var frames = Frames(wal);
        var last = LastTransaction(wal, frames);
        Assert.True(last.Count >= 2 && DurableCount(wal, frames[last.First + 1]) > 1, "a later frame should record the first frames as flushed");

        wal[frames[0] + WalFormat.FrameHeaderSize + 100] ^= 0x5A;

        var error = Assert.Throws<BLiteCorruptionException>(() => new FaultDatabase(file, wal).Open(Options));
        Assert.Contains("records that it had been flushed", error.Message);
    }

    /// <summary>The file and log of a database whose ledger took <paramref name="commits"/> commits after its first, none checkpointed.</summary>
    private static (byte[] File, byte[] Wal) LogOfLedgerCommits(int commits)
    {
        var disk = new FaultDatabase();
        var random = new Random(7);
        var engine = disk.Open(Options);
        {
            using (var init = engine.BeginWrite())
            {
                CommitLedger.Initialize(init, dataPages: 5);
                init.Commit();
            }

            for (var i = 0; i < commits; i++)
            {
                using var tx = engine.BeginWrite();
                CommitLedger.WriteNext(tx, random);
                tx.Commit();
            }

            var image = disk.AfterProcessExit();
            engine.CloseWithoutCheckpoint();
            return (image.File.VisibleContent(), image.Wal.VisibleContent());
        }
    }

    /// <summary>Offsets of the log's page frames of the header's generation (no record frames at this layer).</summary>
    private static List<int> Frames(byte[] wal)
    {
        var generation = BinaryPrimitives.ReadUInt32LittleEndian(wal.AsSpan(24));
        var frameSize = WalFormat.FrameSize(4096);
        var frames = new List<int>();
        for (var at = WalFormat.HeaderSize; at + frameSize <= wal.Length && BinaryPrimitives.ReadUInt32LittleEndian(wal.AsSpan(at + 16)) == generation; at += frameSize)
        {
            frames.Add(at);
        }

        return frames;
    }

    /// <summary>The index of the last transaction's first frame, and how many frames it has.</summary>
    private static (int First, int Count) LastTransaction(byte[] wal, List<int> frames)
    {
        var seq = Seq(wal, frames[^1]);
        var first = frames.Count - 1;
        while (first > 0 && Seq(wal, frames[first - 1]) == seq)
        {
            first--;
        }

        return (first, frames.Count - first);
    }

    private static long Seq(byte[] wal, int frame) => BinaryPrimitives.ReadInt64LittleEndian(wal.AsSpan(frame + 8));

    private static uint DurableCount(byte[] wal, int frame) => BinaryPrimitives.ReadUInt32LittleEndian(wal.AsSpan(frame + 24));
}
