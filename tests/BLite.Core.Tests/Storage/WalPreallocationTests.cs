using BLite.Core.Storage;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Wal;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The log file is kept zero-filled ahead of its appends on another thread, so commits overwrite
/// space the file already has instead of growing it; the file stays bounded by the size at which
/// commits wait for the checkpoint, and a close cuts the emptied log back to its header.
/// </summary>
public class WalPreallocationTests
{
    private const int PageSize = 4096;
    private const int FrameSize = 32 + PageSize;
    private const long Threshold = 64 * PageSize;

    [Theory]
    [InlineData(Durability.Normal)]
    [InlineData(Durability.Full)]
    public void Commits_overwrite_space_filled_ahead_of_them_instead_of_growing_the_log_file(Durability durability)
    {
        using var db = new TestDatabase(new StorageOptions { Durability = durability, PageSize = PageSize, WalCheckpointThresholdBytes = Threshold });
        var page = AllocatePage(db.Engine);
        db.Engine.WaitForLogPreallocation();
        var grownBefore = db.Engine.WalGrowingAppends;

        for (var i = 0; i < 40; i++)
        {
            PageData.Commit(db.Engine, page, i);
            db.Engine.WaitForLogPreallocation();

            // The filler keeps at least half its distance (a sixteenth of the back-pressure size) free ahead.
            Assert.True(db.Engine.WalDeviceLength >= db.Engine.WalEnd + (StorageEngine.BackPressureFactor * Threshold / 32), $"log file {db.Engine.WalDeviceLength} bytes, appends end at {db.Engine.WalEnd}");
        }

        Assert.Equal(grownBefore, db.Engine.WalGrowingAppends);
        Assert.True(db.Engine.WalZeroFilledBytes > 0);
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(39, PageData.Read(read, page));
    }

    [Theory]
    [InlineData(Durability.Normal)]
    [InlineData(Durability.Full)]
    public void Commits_racing_the_filler_are_never_erased_by_its_zeros(Durability durability)
    {
        using var db = new TestDatabase(new StorageOptions { Durability = durability, PageSize = PageSize, WalCheckpointThresholdBytes = 8192 * PageSize, CheckpointInBackground = false });
        var page = AllocatePage(db.Engine);

        // Back to back, the appends catch up with the filler again and again. Twice the filler is
        // let catch up (the thread pool may be busy with other tests), so the commits after it
        // overwrite its zeros and race its next pieces.
        const int commits = 1500;
        for (var i = 0; i < commits; i++)
        {
            PageData.Commit(db.Engine, page, i);
            if (i is 300 or 900)
            {
                db.Engine.WaitForLogPreallocation();
                Assert.True(db.Engine.WalDeviceLength > db.Engine.WalEnd, "nothing was filled ahead of the appends");
            }
        }

        Assert.True(db.Engine.WalZeroFilledBytes >= 4 * LogPreallocator.PieceBytes, $"the filler wrote {db.Engine.WalZeroFilledBytes} bytes");
        Assert.Equal(1, db.Engine.GetStatistics().Checkpoints);
        db.CrashAndReopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(commits - 1, PageData.Read(read, page));
        Assert.Equal(commits + 1L, db.Engine.RecoveredTransactions);
    }

    [Fact]
    public void The_log_file_stays_within_the_back_pressure_size_while_filled_ahead()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize, WalCheckpointThresholdBytes = Threshold });
        var page = AllocatePage(db.Engine);
        long longest = 0;
        for (var i = 0; i < 3000; i++)
        {
            PageData.Commit(db.Engine, page, i);
            if (i % 100 == 0)
            {
                // Now and then the filler is let catch up (the thread pool may be busy with other tests).
                db.Engine.WaitForLogPreallocation();
            }

            longest = Math.Max(longest, db.Engine.WalDeviceLength);
        }

        db.Engine.WaitForLogPreallocation();
        longest = Math.Max(longest, db.Engine.WalDeviceLength);
        Assert.True(db.Engine.BackgroundCheckpoints > 5, $"only {db.Engine.BackgroundCheckpoints} checkpoints");
        Assert.True(db.Engine.WalZeroFilledBytes > 0);
        // One writer, one frame per commit and no counters or log records (so no bookkeeping
        // commit of the checkpoint's own): the commit that reaches the back-pressure size waits
        // until a checkpoint restarts the log, so nothing is appended past it. It used to fail
        // under load by one frame: the checkpoint it found running had restarted the log before
        // it and was only ending, so it waited for nothing and the next commit appended again.
        Assert.InRange(longest, Threshold, (StorageEngine.BackPressureFactor * Threshold) + FrameSize);
    }

    [Fact]
    public void Closing_cuts_the_emptied_log_back_to_its_header()
    {
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = PageSize, WalCheckpointThresholdBytes = Threshold });
        var page = AllocatePage(db.Engine);
        for (var i = 0; i < 30; i++)
        {
            PageData.Commit(db.Engine, page, i);
        }

        db.Engine.WaitForLogPreallocation();
        Assert.True(new FileInfo(db.WalPath).Length > 30L * FrameSize);

        db.Engine.Dispose();

        Assert.Equal(WalFormat.HeaderSize, new FileInfo(db.WalPath).Length);
        db.Reopen();
        using var read = db.Engine.BeginRead();
        Assert.Equal(29, PageData.Read(read, page));
    }

    [Fact]
    public async Task An_append_reaching_into_the_piece_being_zero_filled_waits_for_it()
    {
        using var device = new GatedDevice();
        var space = new LogPreallocator(device, limit: 1024 * 1024, ahead: 256 * 1024);
        space.BeforeAppend(100);
        Assert.True(device.ZeroWriteStarted.Wait(TimeSpan.FromSeconds(30)), "the filler never started");

        // The piece in flight begins at 100: an append ending past it must not write until it lands.
        var append = Task.Run(() => space.BeforeAppend(100 + FrameSize));
        Assert.NotSame(append, await Task.WhenAny(append, Task.Delay(TimeSpan.FromMilliseconds(200))));
        device.Release.Set();
        await append.WaitAsync(TimeSpan.FromSeconds(30));
        space.Stop();
        Assert.Equal(1, space.GrowingAppends);
    }

    [Fact]
    public void A_failed_zero_fill_is_reported_by_the_next_append_that_needs_the_space()
    {
        using var device = new GatedDevice { FailZeroWrites = true };
        device.Release.Set();
        var space = new LogPreallocator(device, limit: 1024 * 1024, ahead: 256 * 1024);
        space.BeforeAppend(100);
        space.WaitUntilIdle();

        var failure = Assert.Throws<IOException>(() => space.BeforeAppend(100 + (200 * 1024)));
        Assert.Contains("Zero-filling the write-ahead log", failure.Message, StringComparison.Ordinal);
        Assert.Contains("injected", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_filler_reserves_the_space_it_fills_in_one_call_and_never_past_the_limit()
    {
        using var device = new GatedDevice { Reserves = true };
        device.Release.Set();
        const long Limit = 1024 * 1024;
        const long Ahead = 256 * 1024;
        var space = new LogPreallocator(device, limit: Limit, ahead: Ahead);
        for (long end = 100; end < 2 * Limit; end += FrameSize)
        {
            space.BeforeAppend(end);
            space.WaitUntilIdle();
        }

        space.Stop();

        // Each reservation covers a whole stretch the filler was asked for (several pieces),
        // each starts where the zeros had reached, and none reaches past the limit.
        Assert.True(device.Reservations.Count >= 2, $"{device.Reservations.Count} reservations");
        Assert.All(device.Reservations, reservation => Assert.True(reservation.Offset + reservation.Length <= Limit, $"reserved up to {reservation.Offset + reservation.Length}"));
        Assert.True(device.Reservations.Max(reservation => reservation.Length) > LogPreallocator.PieceBytes);
        Assert.True(space.PiecesStarted > device.Reservations.Count, $"{space.PiecesStarted} pieces for {device.Reservations.Count} reservations");
    }

    [Fact]
    public void A_device_that_cannot_reserve_is_asked_once_and_still_filled_with_zeros()
    {
        using var device = new GatedDevice { Reserves = false };
        device.Release.Set();
        var space = new LogPreallocator(device, limit: 1024 * 1024, ahead: 256 * 1024);
        for (long end = 100; end < 1024 * 1024; end += 64 * 1024)
        {
            space.BeforeAppend(end);
            space.WaitUntilIdle();
        }

        space.Stop();
        Assert.Single(device.Reservations);
        Assert.Equal(1024 * 1024, device.Length);
        Assert.Equal(1024 * 1024 - 100, space.FilledBytes);
    }

    [Fact]
    public void Reserving_part_of_a_log_file_extends_it_with_zeros_and_keeps_what_it_holds()
    {
        var path = Path.Combine(Path.GetTempPath(), $"blite-reserve-{Guid.NewGuid():N}.wal");
        try
        {
            using var device = FileDevice.Open(path, FileMode.CreateNew, exclusive: true);
            var frame = Enumerable.Range(0, FrameSize).Select(i => (byte)(i + 1)).ToArray();
            device.Write(0, frame);
            var reserved = device.Reserve(FrameSize / 2, 1024 * 1024);

            // fallocate on 64-bit Linux; elsewhere the filler zero-fills as it always did.
            Assert.Equal(OperatingSystem.IsLinux() && Environment.Is64BitProcess, reserved);
            Assert.Equal(reserved ? (FrameSize / 2) + (1024 * 1024) : FrameSize, device.Length);
            var back = new byte[device.Length];
            Assert.Equal(back.Length, device.Read(0, back));
            Assert.Equal(frame, back[..FrameSize]);
            Assert.DoesNotContain(back[FrameSize..], b => b != 0);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static uint AllocatePage(StorageEngine engine)
    {
        using var tx = engine.BeginWrite();
        var page = tx.AllocatePage();
        PageData.Stamp(tx, page, -1);
        tx.Commit();
        return page;
    }

    /// <summary>A memory device whose writes of zeros wait for <see cref="Release"/> (or fail).</summary>
    private sealed class GatedDevice : IStorageDevice
    {
        private readonly MemoryDevice _inner = new("gated-wal");

        public ManualResetEventSlim ZeroWriteStarted { get; } = new();

        public ManualResetEventSlim Release { get; } = new();

        public bool FailZeroWrites { get; init; }

        /// <summary>Whether <see cref="Reserve"/> succeeds (extending the device) or refuses; it records the call either way.</summary>
        public bool Reserves { get; init; }

        public List<(long Offset, long Length)> Reservations { get; } = [];

        public string Name => _inner.Name;

        public long Length => _inner.Length;

        public int Read(long offset, Span<byte> destination) => _inner.Read(offset, destination);

        public void Write(long offset, ReadOnlySpan<byte> source) => _inner.Write(offset, source);

        public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
        {
            if (sources.All(source => !source.Span.ContainsAnyExcept((byte)0)))
            {
                ZeroWriteStarted.Set();
                Release.Wait();
                if (FailZeroWrites)
                {
                    throw new IOException("injected: no space left on device");
                }
            }

            _inner.Write(offset, sources);
        }

        public void Flush() => _inner.Flush();

        public void SetLength(long length) => _inner.SetLength(length);

        public bool Reserve(long offset, long length)
        {
            lock (Reservations)
            {
                Reservations.Add((offset, length));
            }

            if (Reserves && _inner.Length < offset + length)
            {
                _inner.SetLength(offset + length);
            }

            return Reserves;
        }

        public void Dispose()
        {
            Release.Set();
            _inner.Dispose();
        }
    }
}
