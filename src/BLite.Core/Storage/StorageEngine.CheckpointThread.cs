using System.Runtime.ExceptionServices;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage;

/// <summary>
/// The background checkpoint's copier (docs/storage.md, "Background checkpoint"): a thread of the
/// engine's own, at a lowered scheduling priority, that runs the copy passes made without the
/// writer slot, so that on a machine with few cores a committer takes the core from it instead
/// of waiting for its time slice. Only those passes: everything a committer can wait for (the
/// writer slot, the log flush, the finish) stays on the checkpoint's normal-priority thread, so a
/// starved copier can delay the checkpoint but never hold a committer. Started by the first copy,
/// parked between copies, ended at the close. Not a thread-pool thread: once lowered, an
/// unprivileged thread cannot raise its priority again.
/// </summary>
internal sealed partial class StorageEngine
{
    private readonly Lock _copierLock = new();
    // One release per copy handed over (one at a time: the checkpoint gate) and one at the end.
    private readonly SemaphoreSlim _copierWake = new(0);
    private readonly ManualResetEventSlim _copyDone = new(false);
    private Thread? _copier;
    private bool _copierEnding;
    private Action? _copyJob;
    private ExceptionDispatchInfo? _copyFailure;
    private int _copierLowered = -1;

    /// <summary>The priority the copier asks for.</summary>
    internal static readonly BackgroundPriority CopierPriority = ReadCopierPriority();

    private static BackgroundPriority ReadCopierPriority() =>
        Environment.GetEnvironmentVariable("BLITE_CHECKPOINT_PRIORITY") switch
        {
            "normal" => BackgroundPriority.Normal,
            "nice10" => BackgroundPriority.Nice10,
            "nice19" => BackgroundPriority.Nice19,
            _ => BackgroundPriority.Idle,
        };

    /// <summary>Lowers the calling (copier) thread's priority; true when it did. Tests replace it to see a refusal.</summary>
    internal Func<bool> LowerCopierPriority { get; set; } = static () => ThreadScheduling.TryLowerCurrentThread(CopierPriority);

    /// <summary>The copier, once started (tests check that it ends at the close).</summary>
    internal Thread? CopierThread
    {
        get
        {
            lock (_copierLock)
            {
                return _copier;
            }
        }
    }

    /// <summary>Copy passes and log flushes the copier thread ran since open.</summary>
    internal long CopierRuns => Interlocked.Read(ref _copierRuns);

    private long _copierRuns;

    /// <summary>Whether the copier got its lower priority: null until it has asked.</summary>
    internal bool? CopierLowered => Volatile.Read(ref _copierLowered) switch
    {
        -1 => null,
        0 => false,
        _ => true,
    };

    /// <summary>
    /// <see cref="CopyVersionsToFile"/> on the copier thread, waited for; on the calling thread
    /// once the engine is closing (the copy then fails on the closed file, as it always did).
    /// </summary>
    private void CopyOnCopierThread(uint[] pages, long snapshot) => RunOnCopier(() => CopyVersionsToFile(pages, snapshot));

    /// <summary>
    /// The checkpoint's log flushes made without the writer slot: on the copier at
    /// <see cref="Durability.Normal"/>, where no commit waits for them (a flush writes back every
    /// dirty page of the log, milliseconds of CPU for a threshold's worth); at Full a commit's
    /// own flush may be waiting for this one, so it stays on the checkpoint's thread.
    /// </summary>
    private void FlushLogForCheckpoint(long lsn)
    {
        if (Options.Durability == Durability.Normal)
        {
            RunOnCopier(() => WaitDurable(lsn));
        }
        else
        {
            WaitDurable(lsn);
        }
    }

    private void RunOnCopier(Action work)
    {
        if (!HandToCopier(work))
        {
            work();
            return;
        }

        _copierWake.Release();
        _copyDone.Wait();
        Interlocked.Exchange(ref _copyFailure, null)?.Throw();
    }

    /// <summary>Leaves <paramref name="work"/> for the copier, starting it if need be; false once it is ending.</summary>
    private bool HandToCopier(Action work)
    {
        lock (_copierLock)
        {
            if (_copierEnding)
            {
                return false;
            }

            if (_copier is null)
            {
                _copier = new Thread(ServeCopies) { IsBackground = true, Name = "BLite checkpoint copier" };
                _copier.Start();
            }

            _copyJob = work;
            _copyDone.Reset();
            return true;
        }
    }

    private void ServeCopies()
    {
        Volatile.Write(ref _copierLowered, LowerCopierPriority() ? 1 : 0);
        while (true)
        {
            _copierWake.Wait();
            Action? job;
            lock (_copierLock)
            {
                job = _copyJob;
                _copyJob = null;
                // Work handed over just before the end is still done: its checkpoint waits for it.
                if (job is null && _copierEnding)
                {
                    return;
                }
            }

            if (job is null)
            {
                continue;
            }

            try
            {
                job();
                Interlocked.Increment(ref _copierRuns);
            }
            catch (Exception exception)
            {
                // Handed back: the checkpoint fails on its own thread, exactly as before.
                Volatile.Write(ref _copyFailure, ExceptionDispatchInfo.Capture(exception));
            }
            finally
            {
                _copyDone.Set();
            }
        }
    }

    /// <summary>
    /// Ends the copier once the engine is closed. With <paramref name="join"/> it also waits for
    /// the thread to end: only where no checkpoint can still be copying (the close, after it
    /// released the checkpoint gate).
    /// </summary>
    private void EndCopier(bool join)
    {
        Thread? copier;
        lock (_copierLock)
        {
            _copierEnding = true;
            copier = _copier;
        }

        _copierWake.Release();
        if (join && copier is not null && copier != Thread.CurrentThread)
        {
            copier.Join();
        }
    }
}
