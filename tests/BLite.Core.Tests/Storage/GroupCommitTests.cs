using System.Buffers.Binary;
using System.Collections.Concurrent;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Concurrent committers in Full mode share flushes, yet a commit is acknowledged only once a
/// flush covers it: after a power cut at a random moment every acknowledged commit is on disk.
/// </summary>
public class GroupCommitTests
{
    private const int Committers = 8;

    [Fact]
    public async Task Committers_that_arrive_during_a_flush_share_the_next_one()
    {
        var disk = new FaultDatabase();
        using var engine = disk.Open(new StorageOptions { PageSize = 4096 });
        var pages = AllocateSlots(engine);
        var writesBefore = disk.Injector.Writes;
        var flushesBefore = disk.Injector.Flushes;

        // Hold the first flush open until every committer has appended its frames.
        var held = 0;
        disk.Injector.OnFlush = _ =>
        {
            if (Interlocked.Exchange(ref held, 1) == 0)
            {
                SpinWait.SpinUntil(() => disk.Injector.Writes >= writesBefore + Committers);
            }
        };

        await Task.WhenAll(Enumerable.Range(0, Committers).Select(c => Task.Run(async () =>
        {
            using var tx = await engine.BeginWriteAsync();
            BinaryPrimitives.WriteInt64LittleEndian(tx.WritePage(pages[c]).Span, c + 1);
            await tx.CommitAsync();
        })));

        // One flush for the first committer, one shared by the seven that queued behind it.
        Assert.Equal(2, disk.Injector.Flushes - flushesBefore);
        using var read = engine.BeginRead();
        for (var c = 0; c < Committers; c++)
        {
            Assert.Equal(c + 1, BinaryPrimitives.ReadInt64LittleEndian(read.ReadPage(pages[c]).Span));
        }
    }

    [Fact]
    public async Task Every_acknowledged_concurrent_commit_survives_a_power_cut()
    {
        for (var run = 0; run < 40; run++)
        {
            var random = new Random(run);
            var disk = new FaultDatabase();
            var options = new StorageOptions { PageSize = 4096, WalCheckpointThresholdBytes = 4096 * random.Next(8, 64) };
            var engine = disk.Open(options);
            var pages = AllocateSlots(engine);
            disk.Injector.PowerLossAtOperation = disk.Injector.MutatingOperations + random.Next(1, 150);
            var acknowledged = new ConcurrentDictionary<int, long>();

            await Task.WhenAll(Enumerable.Range(0, Committers).Select(c => Task.Run(async () =>
            {
                for (long i = 1; i <= 100; i++)
                {
                    try
                    {
                        using var tx = await engine.BeginWriteAsync();
                        BinaryPrimitives.WriteInt64LittleEndian(tx.WritePage(pages[c]).Span, i);
                        await tx.CommitAsync();
                        acknowledged[c] = i;
                    }
                    catch (BLiteException) when (disk.Injector.IsPoweredOff)
                    {
                        return;
                    }
                }
            })));

            using var reopened = disk.AfterPowerLoss(random).Open(options);
            using var read = reopened.BeginRead();
            for (var c = 0; c < Committers; c++)
            {
                var onDisk = BinaryPrimitives.ReadInt64LittleEndian(read.ReadPage(pages[c]).Span);
                Assert.True(onDisk >= acknowledged.GetValueOrDefault(c), $"run {run}: committer {c} was acknowledged {acknowledged.GetValueOrDefault(c)} but disk has {onDisk}");
            }

            Assert.True(reopened.Verify().IsValid);
        }
    }

    private static uint[] AllocateSlots(StorageEngine engine)
    {
        var pages = new uint[Committers];
        using var tx = engine.BeginWrite();
        for (var i = 0; i < Committers; i++)
        {
            pages[i] = tx.AllocatePage();
        }

        tx.Commit();
        return pages;
    }
}
