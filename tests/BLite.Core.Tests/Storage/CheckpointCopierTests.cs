using BLite.Core.CrashWorker;
using BLite.Core.Storage;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The background checkpoint's copier runs run on a thread of the engine's own at a lowered
/// priority (docs/storage.md, "Background checkpoint"): one thread serves every checkpoint of an
/// engine, ends at the close (also after a failed copy), and a refused priority only leaves it at
/// the normal one.
/// </summary>
public class CheckpointCopierTests
{
    private const int PageSize = 4096;
    private const long Threshold = 16 * PageSize;

    [Fact]
    public async Task One_copier_thread_serves_repeated_checkpoints_and_ends_at_the_close()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options());
        var random = new Random(1);
        Commit(engine, random, initialize: true);
        Assert.Null(engine.CopierThread);

        var last = await CommitThroughCheckpoints(engine, random, 1);
        var copier = engine.CopierThread;
        Assert.NotNull(copier);
        Assert.True(copier.IsAlive);
        var passes = engine.CopierRuns;
        Assert.True(passes >= 1, $"{passes} copier runs on the copier after a checkpoint");

        last = await CommitThroughCheckpoints(engine, random, 3);
        Assert.Same(copier, engine.CopierThread);
        Assert.True(copier.IsAlive);
        Assert.True(engine.CopierRuns >= passes + 2, $"{engine.CopierRuns} copier runs after {engine.BackgroundCheckpoints} checkpoints");
        Assert.Equal(OperatingSystem.IsLinux(), engine.CopierLowered);

        engine.Dispose();
        Assert.False(copier.IsAlive);
        using var reopened = disk.AfterProcessExit().Open(Options());
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    [Fact]
    public async Task A_refused_priority_leaves_the_copier_at_normal_priority_and_checkpoints_still_run()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options());
        var asked = 0;
        engine.LowerCopierPriority = () =>
        {
            Interlocked.Increment(ref asked);
            return false;
        };
        var random = new Random(2);
        Commit(engine, random, initialize: true);

        var last = await CommitThroughCheckpoints(engine, random, 2);

        Assert.Equal(1, asked);
        Assert.False(engine.CopierLowered);
        Assert.True(engine.CopierRuns >= 2);
        Assert.Null(engine.WriteFailure);
        var copier = engine.CopierThread!;
        engine.Dispose();
        Assert.False(copier.IsAlive);
        using var reopened = disk.AfterProcessExit().Open(Options());
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    [Fact]
    public async Task A_copy_that_fails_on_the_copier_fails_the_checkpoint_and_the_copier_still_ends_at_the_close()
    {
        var disk = new FaultDatabase();
        var engine = disk.Open(Options());
        var random = new Random(3);
        Commit(engine, random, initialize: true);
        var copierAtFlush = new TaskCompletionSource<Thread>(TaskCreationOptions.RunContinuationsAsynchronously);
        var released = new ManualResetEventSlim(false);
        var testThread = Environment.CurrentManagedThreadId;
        disk.Injector.OnFlush = device =>
        {
            if (device == "fault.blite" && Environment.CurrentManagedThreadId != testThread && copierAtFlush.TrySetResult(Thread.CurrentThread))
            {
                released.Wait();
            }
        };
        long last = 0;
        // No commit once a checkpoint runs: one could meet back-pressure and wait for the held copy.
        for (var i = 0; i < 200 && engine.BackgroundCheckpointTask.IsCompleted; i++)
        {
            last = Commit(engine, random);
        }

        var flushing = await copierAtFlush.Task.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Same(engine.CopierThread, flushing);
        disk.Injector.FailFlushAt = disk.Injector.Flushes + 1;
        released.Set();
        await engine.BackgroundCheckpointTask.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.NotNull(engine.BackgroundFailure);
        Assert.Contains("Injected", engine.BackgroundFailure.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, engine.BackgroundCheckpoints);
        var copier = engine.CopierThread!;
        Assert.True(copier.IsAlive);
        var closing = await Assert.ThrowsAsync<BLiteException>(() => Task.Run(engine.Dispose).WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Contains("background checkpoint had failed", closing.Message, StringComparison.Ordinal);
        Assert.False(copier.IsAlive);

        disk.Injector.OnFlush = null;
        using var reopened = disk.AfterProcessExit().Open(Options());
        using var read = reopened.BeginRead();
        Assert.Equal(last, CommitLedger.Check(read));
    }

    [Fact]
    public void On_Linux_a_lowered_thread_runs_under_the_idle_policy_and_other_threads_keep_theirs()
    {
        bool lowered = false;
        string? policy = null;
        var thread = new Thread(() =>
        {
            lowered = ThreadScheduling.TryLowerCurrentThread(BackgroundPriority.Idle);
            policy = OperatingSystem.IsLinux() ? SchedulingPolicy("/proc/thread-self/stat") : null;
        });
        thread.Start();
        thread.Join();

        Assert.Equal(OperatingSystem.IsLinux(), lowered);
        if (OperatingSystem.IsLinux())
        {
            Assert.Equal("5", policy);
            Assert.Equal("0", SchedulingPolicy("/proc/thread-self/stat"));
        }

        Assert.False(ThreadScheduling.TryLowerCurrentThread(BackgroundPriority.Normal));
    }

    /// <summary>Field 41 of a thread's stat line (after the parenthesised name, which may hold spaces).</summary>
    private static string SchedulingPolicy(string statPath)
    {
        var stat = File.ReadAllText(statPath);
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields[41 - 3];
    }

    /// <summary>Commits until <paramref name="checkpoints"/> more background checkpoints have completed; returns the last commit.</summary>
    private static async Task<long> CommitThroughCheckpoints(StorageEngine engine, Random random, int checkpoints)
    {
        var target = engine.BackgroundCheckpoints + checkpoints;
        long last = 0;
        for (var i = 0; i < 2_000 && engine.BackgroundCheckpoints < target; i++)
        {
            last = Commit(engine, random);
            if (!engine.BackgroundCheckpointTask.IsCompleted)
            {
                await engine.BackgroundCheckpointTask;
            }
        }

        Assert.True(engine.BackgroundCheckpoints >= target, $"{engine.BackgroundCheckpoints} background checkpoints, {target} wanted");
        return last;
    }

    private static StorageOptions Options() => new()
    {
        Durability = Durability.Normal,
        PageSize = PageSize,
        WalCheckpointThresholdBytes = Threshold,
    };

    private static long Commit(StorageEngine engine, Random random, bool initialize = false)
    {
        using var tx = engine.BeginWrite();
        if (initialize)
        {
            CommitLedger.Initialize(tx, dataPages: 4);
            tx.Commit();
            return 0;
        }

        var n = CommitLedger.WriteNext(tx, random);
        tx.Commit();
        return n;
    }
}
